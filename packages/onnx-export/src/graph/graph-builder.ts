import { deferredTensor, type DeferredBytes } from './deferred-bytes.js';
import { AttributeType, DataType, type OnnxTypes } from './onnx.js';

/** An attribute value: integers become INT/INTS, `{ float }` a FLOAT. */
export type AttributeValue = number | number[] | { float: number };

/** A dimension: a fixed size or a symbolic name (a dynamic axis). */
export type Dimension = number | string;

/**
 * Collects the nodes, initializers, inputs and outputs of one ONNX graph. Value names are
 * unique: each node's output is named after the node (`<scope>/<op>`, numbered on reuse)
 * unless a name is given, which is how graph outputs get their public names.
 */
export class GraphBuilder {
  readonly nodes: OnnxTypes.INodeProto[] = [];
  readonly initializers: OnnxTypes.ITensorProto[] = [];
  readonly inputs: OnnxTypes.IValueInfoProto[] = [];
  readonly outputs: OnnxTypes.IValueInfoProto[] = [];
  readonly #usedNames = new Set<string>();
  readonly #constants = new Map<string, string>();
  readonly #shared = new Map<string, number[]>();

  /** A name not used before: `base`, else `base_1`, `base_2`, ... */
  uniqueName(base: string): string {
    return this.claim(this.freshName(base));
  }

  input(name: string, elementType: number, shape: readonly Dimension[]): string {
    this.#usedNames.add(name);
    this.inputs.push(valueInfo(name, elementType, shape));
    return name;
  }

  /** Declares `name` (already produced by a node) a graph output. */
  output(name: string, elementType: number, shape: readonly Dimension[]): void {
    this.outputs.push(valueInfo(name, elementType, shape));
  }

  /** Adds a node with one output and returns that output's name. */
  node(
    opType: string,
    inputs: readonly string[],
    options: { scope: string; attributes?: Record<string, AttributeValue>; output?: string; domain?: string },
  ): string {
    return this.nodeWithOutputs(opType, inputs, 1, options)[0]!;
  }

  nodeWithOutputs(
    opType: string,
    inputs: readonly string[],
    outputCount: number,
    options: { scope: string; attributes?: Record<string, AttributeValue>; output?: string; domain?: string },
  ): string[] {
    const nodeName = this.uniqueName(`${options.scope}/${opType}`);
    const outputs = Array.from({ length: outputCount }, (_, index) =>
      index === 0 && options.output !== undefined ? this.claim(options.output) : this.uniqueName(`${nodeName}_output_${index}`),
    );
    const attribute = Object.entries(options.attributes ?? {}).map(([name, value]) => attributeProto(name, value));
    this.nodes.push({ name: nodeName, opType, input: [...inputs], output: outputs, attribute, ...(options.domain ? { domain: options.domain } : {}) });
    return outputs;
  }

  /** A float32 initializer; `data` is referenced, not copied, until the model is encoded (or computed then, when deferred). */
  floatInitializer(name: string, dims: readonly number[], data: Float32Array | DeferredBytes): string {
    return this.initializer(name, DataType.FLOAT, dims, data instanceof Float32Array ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : data);
  }

  /** A uint8 initializer (a quantized weight's integers); `data` is referenced, not copied, until the model is encoded (or computed then). */
  uint8Initializer(name: string, dims: readonly number[], data: Uint8Array | DeferredBytes): string {
    return this.initializer(name, DataType.UINT8, dims, data);
  }

  /**
   * A weight that several parts of the graph read (the final norm and a head, applied at every
   * position and at the read positions): stored once, `data` computed only the first time.
   */
  sharedFloatInitializer(name: string, dims: readonly number[], data: () => Float32Array | DeferredBytes): string {
    const known = this.#shared.get(name);
    if (known !== undefined) {
      if (known.join('x') !== dims.join('x')) throw new Error(`weight "${name}" is used as [${known.join(', ')}] and as [${dims.join(', ')}]`);
      return name;
    }
    this.#shared.set(name, [...dims]);
    return this.floatInitializer(name, dims, data());
  }

  /** A small int64 constant (shapes, axes, indices), shared between nodes that use the same value. */
  int64Constant(values: readonly number[], dims: readonly number[] = [values.length]): string {
    const key = `int64:${dims.join('x')}:${values.join(',')}`;
    const known = this.#constants.get(key);
    if (known) return known;
    const name = this.initializer(this.freshName(`const_int64_${values.join('_').replace(/-/g, 'm')}`), DataType.INT64, dims, int64Bytes(values));
    this.#constants.set(key, name);
    return name;
  }

  /** A float32 scalar constant, shared. */
  floatConstant(value: number): string {
    const key = `float:${value}`;
    const known = this.#constants.get(key);
    if (known) return known;
    const data = Float32Array.of(value);
    const name = this.initializer(this.freshName(`const_float_${this.#constants.size}`), DataType.FLOAT, [], new Uint8Array(data.buffer));
    this.#constants.set(key, name);
    return name;
  }

  graph(name: string): OnnxTypes.IGraphProto {
    return { name, node: this.nodes, initializer: this.initializers, input: this.inputs, output: this.outputs };
  }

  private initializer(name: string, dataType: number, dims: readonly number[], data: Uint8Array | DeferredBytes): string {
    this.claim(name);
    const tensor = { name, dataType, dims: [...dims] };
    this.initializers.push(data instanceof Uint8Array ? { ...tensor, rawData: data } : deferredTensor(tensor, data));
    return name;
  }

  private freshName(base: string): string {
    let name = base;
    for (let suffix = 1; this.#usedNames.has(name); suffix++) name = `${base}_${suffix}`;
    return name;
  }

  private claim(name: string): string {
    if (this.#usedNames.has(name)) throw new Error(`graph value "${name}" is defined twice`);
    this.#usedNames.add(name);
    return name;
  }
}

function valueInfo(name: string, elementType: number, shape: readonly Dimension[]): OnnxTypes.IValueInfoProto {
  const dim = shape.map((dimension) => (typeof dimension === 'number' ? { dimValue: dimension } : { dimParam: dimension }));
  return { name, type: { tensorType: { elemType: elementType, shape: { dim } } } };
}

function attributeProto(name: string, value: AttributeValue): OnnxTypes.IAttributeProto {
  if (typeof value === 'number') return { name, type: AttributeType.INT, i: value };
  if (Array.isArray(value)) return { name, type: AttributeType.INTS, ints: value };
  return { name, type: AttributeType.FLOAT, f: value.float };
}

function int64Bytes(values: readonly number[]): Uint8Array {
  const data = BigInt64Array.from(values, (value) => BigInt(value));
  return new Uint8Array(data.buffer);
}

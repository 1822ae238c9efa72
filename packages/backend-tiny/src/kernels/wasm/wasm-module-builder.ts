import { CodeEmitter, type ValueType } from './code-emitter.js';
import { unsignedLeb128 } from './leb128.js';

/**
 * A minimal WebAssembly binary emitter: enough of the format (types, an imported memory,
 * functions, exports, code) to hand-assemble small SIMD kernels from TypeScript, with no
 * toolchain and no `.wasm` file in the repository.
 *
 * Reference: the WebAssembly core specification, "Binary Format", and the fixed-width SIMD
 * proposal (now part of the core spec) for the `0xfd`-prefixed instructions.
 */

function encodeName(name: string): number[] {
  const utf8 = new TextEncoder().encode(name);
  return [...unsignedLeb128(utf8.length), ...utf8];
}

function encodeVector(items: readonly number[][]): number[] {
  return [...unsignedLeb128(items.length), ...items.flat()];
}

function encodeSection(id: number, content: readonly number[]): number[] {
  return [id, ...unsignedLeb128(content.length), ...content];
}

const sectionId = { type: 1, import: 2, function: 3, export: 7, code: 10 } as const;
const externalKind = { function: 0x00, memory: 0x02 } as const;

interface FunctionDefinition {
  typeIndex: number;
  locals: ValueType[];
  body: number[];
}

/**
 * Builds one module. Functions are numbered in the order they are added (after imported
 * functions, of which this builder has none), so a body can `call` any function added before.
 *
 * @example
 * const builder = new WasmModuleBuilder();
 * builder.addFunction('add', [valueType.i32, valueType.i32], [valueType.i32], (code) => {
 *   code.localGet(0).localGet(1).i32Add();
 * });
 * const { add } = new WebAssembly.Instance(new WebAssembly.Module(builder.toBytes())).exports;
 */
export class WasmModuleBuilder {
  #types: number[][] = [];
  #imports: number[][] = [];
  #functions: FunctionDefinition[] = [];
  #exports: number[][] = [];

  /**
   * Imports a linear memory `module.name` of at least `initialPages` 64 KiB pages. With `shared`
   * (the threads feature), a shared memory of at most `shared.maximumPages` pages: one that
   * several threads' instances import at once.
   */
  importMemory(module: string, name: string, initialPages: number, shared?: { maximumPages: number }): this {
    const limits = shared ? [0x03, ...unsignedLeb128(initialPages), ...unsignedLeb128(shared.maximumPages)] : [0x00, ...unsignedLeb128(initialPages)];
    this.#imports.push([...encodeName(module), ...encodeName(name), externalKind.memory, ...limits]);
    return this;
  }

  /**
   * Adds a function and returns its index. `build` writes the body; locals it declares through
   * `code.addLocal` are numbered after the parameters. Exported under `exportName` when given.
   */
  addFunction(exportName: string | undefined, parameters: readonly ValueType[], results: readonly ValueType[], build: (code: CodeEmitter) => void): number {
    const signature = [0x60, ...encodeVector(parameters.map((type) => [type])), ...encodeVector(results.map((type) => [type]))];
    let typeIndex = this.#types.findIndex((existing) => existing.length === signature.length && existing.every((byte, index) => byte === signature[index]));
    if (typeIndex < 0) typeIndex = this.#types.push(signature) - 1;
    const code = new CodeEmitter(parameters.length);
    build(code);
    const index = this.#functions.push({ typeIndex, locals: code.locals, body: code.bytes }) - 1;
    if (exportName !== undefined) this.#exports.push([...encodeName(exportName), externalKind.function, ...unsignedLeb128(index)]);
    return index;
  }

  toBytes(): Uint8Array<ArrayBuffer> {
    const codeEntries = this.#functions.map(({ locals, body }) => {
      // Consecutive locals of one type share an entry: [count, type].
      const groups: number[][] = [];
      for (let index = 0; index < locals.length; ) {
        let end = index;
        while (end < locals.length && locals[end] === locals[index]) end++;
        groups.push([...unsignedLeb128(end - index), locals[index]!]);
        index = end;
      }
      const entry = [...encodeVector(groups), ...body, 0x0b];
      return [...unsignedLeb128(entry.length), ...entry];
    });
    return Uint8Array.from([
      0x00,
      0x61,
      0x73,
      0x6d, // "\0asm"
      0x01,
      0x00,
      0x00,
      0x00, // version 1
      ...encodeSection(sectionId.type, encodeVector(this.#types)),
      ...(this.#imports.length > 0 ? encodeSection(sectionId.import, encodeVector(this.#imports)) : []),
      ...encodeSection(sectionId.function, encodeVector(this.#functions.map(({ typeIndex }) => unsignedLeb128(typeIndex)))),
      ...(this.#exports.length > 0 ? encodeSection(sectionId.export, encodeVector(this.#exports)) : []),
      ...encodeSection(sectionId.code, encodeVector(codeEntries)),
    ]);
  }
}

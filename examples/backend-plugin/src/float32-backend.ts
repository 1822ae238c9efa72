import {
  BackendContractError,
  capabilitiesOf,
  decoderModelInfo,
  describeDecoder,
  validateDecoderModel,
  validateForwardRequest,
  type BackendV1,
  type DecoderModel,
  type ForwardRequestV1,
  type ForwardResultV1,
  type ModelInfoV1,
  type ReadRequestV1,
} from '@reward-lens/spec';
import { forwardStates } from './float32-forward.js';
import { compileHead, type CompiledHead } from './float32-heads.js';

/**
 * A `BackendV1` over decoder weights in plain JavaScript float32. It runs each row's real tokens
 * on their own (so padding, on either side, never reaches the computation), only as deep as the
 * reads need, and reads heads at any layer (LINEAR_READOUT) and hidden states (ACTIVATIONS). It
 * keeps no KV cache, so the conformance kit skips the cache tests, saying why.
 */
class Float32Backend implements BackendV1 {
  readonly specificationVersion = 'v1' as const;
  readonly name = 'float32-example';
  readonly capabilities = capabilitiesOf('SCORES', 'PREFIX_SCORES', 'STEP_SCORES', 'ACTIVATIONS', 'LINEAR_READOUT');
  readonly precision = 'fp32' as const;
  readonly supportsCache = false;
  readonly info: ModelInfoV1;
  #model: DecoderModel | null;
  readonly #heads: Map<string, CompiledHead>;

  constructor(model: DecoderModel) {
    this.#model = model;
    this.info = decoderModelInfo(model.config, `${describeDecoder(model.config)} plain float32 (example plugin)`);
    this.#heads = new Map(model.config.heads.map((head) => [head.name, compileHead(model, head)]));
  }

  async doForward(request: ForwardRequestV1): Promise<ForwardResultV1> {
    const model = this.#model;
    if (model === null) throw new BackendContractError(this.name, 'doForward was called after dispose()');
    validateForwardRequest(this, request);
    const { numLayers } = model.config;
    const layerOf = (read: ReadRequestV1) => (read.kind === 'hidden' ? read.layer : (read.layer ?? numLayers));
    const deepest = Math.max(0, ...request.reads.map(layerOf));
    const rows = Array.from({ length: request.batchSize }, (_, row) => {
      const ids: number[] = [];
      const tokenOf = new Map<number, number>();
      for (let column = 0; column < request.sequenceLength; column++) {
        const cell = row * request.sequenceLength + column;
        if (request.attentionMask[cell] === 1) {
          tokenOf.set(column, ids.length);
          ids.push(request.inputIds[cell]!);
        }
      }
      return { states: forwardStates(model, ids, deepest), tokenOf };
    });
    const reads = request.reads.map((read) => {
      const head = read.kind === 'head' ? this.#heads.get(read.head)! : undefined;
      const width = read.kind === 'hidden' ? model.config.hiddenSize : (read.columns?.length ?? this.info.heads.find((info) => info.name === read.head)!.width);
      const values = read.positions.map((positions, row) => {
        const { states, tokenOf } = rows[row]!;
        const out = new Float32Array(positions.length * width);
        positions.forEach((position, index) => {
          const state = states[layerOf(read)]![tokenOf.get(position)!]!;
          out.set(head ? head(state, read.kind === 'head' ? read.columns : undefined) : state, index * width);
        });
        return out;
      });
      return { width, values };
    });
    return { reads };
  }

  async dispose(): Promise<void> {
    this.#model = null;
  }
}

/**
 * Creates the example backend for decoder weights (validated first: a missing or misshapen tensor
 * is a `ModelLoadError` naming it).
 *
 * @example
 * const prm = ProcessRM.fromBackend(createFloat32Backend(createRandomDecoder({ seed: 0 })), createByteBpeTokenizer());
 */
export function createFloat32Backend(model: DecoderModel): BackendV1 {
  validateDecoderModel(model, "the example backend's model");
  return new Float32Backend(model);
}

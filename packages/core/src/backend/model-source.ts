import type { DecoderModel } from '../model/decoder-model.js';

/** What a backend is asked to run. Backends skip sources they cannot run, with a reason. */
export type ModelSource =
  /** Float32 decoder weights in memory (seeded, converted, or loaded from safetensors). */
  | { kind: 'decoder'; model: DecoderModel; description: string }
  /** An ONNX graph on disk (with its external data beside it). */
  | { kind: 'onnx'; path: string; description: string };

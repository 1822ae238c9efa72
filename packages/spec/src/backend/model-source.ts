import type { WeightDtypeV1 } from './v1/backend-v1.js';
import type { DecoderModel } from '../model/decoder-model.js';
import type { HeadSpec } from '../model/decoder-config.js';

/**
 * What every model source has. The set of kinds is open: a third-party backend defines its own
 * (name it after your package, `acme.remote-endpoint`) with whatever fields it needs, and core
 * needs no change. Backends narrow by kind (`isDecoderSource`, `isOnnxSource`, or their own
 * guard) and skip a source they cannot run with a reason (`unsupportedSourceReason`).
 */
export interface ModelSourceBase {
  readonly kind: string;
  /** Says what is being run, for the result's notes (`the weights in models/my-prm`). */
  readonly description: string;
}

/** Built in: float32 decoder weights in memory (seeded, converted, or loaded from safetensors). */
export interface DecoderModelSource extends ModelSourceBase {
  readonly kind: 'decoder';
  readonly model: DecoderModel;
}

/**
 * Built in: an ONNX graph, on disk (with its external data beside it) or, with `bytes`, in memory
 * (files a user picked in a browser, `ProcessRM.fromFiles`).
 */
export interface OnnxModelSource extends ModelSourceBase {
  readonly kind: 'onnx';
  /** Where the graph is: a path in Node, a URL in browsers. With `bytes`, only how errors name it. */
  readonly path: string;
  /** The graph itself, when it is already in memory: backends run these bytes and do not read `path`. */
  readonly bytes?: Uint8Array;
  /** With `bytes`: the text of the model's `config.json` (there is no file beside `path` to look for). */
  readonly configJson?: string;
  /** How the graph holds its weights (`model_q4.onnx`: q4); fp32 when absent. */
  readonly weightDtype?: WeightDtypeV1;
}

/**
 * Built in: a Hugging Face weights folder on disk (`config.json` and safetensors), not yet read.
 * A backend that converts weights to files of its own (onnx-node exports them to ONNX) reads the
 * folder itself, elsewhere than the caller's heap, so that the caller never holds the weights.
 * Given only to a backend named by the user whose registration lists `decoder-folder`
 * (`readsDecoderFolders`).
 */
export interface DecoderFolderSource extends ModelSourceBase {
  readonly kind: 'decoder-folder';
  /** The folder's path on disk. */
  readonly folder: string;
  /** The heads to read (config.json does not name them). */
  readonly heads: readonly HeadSpec[];
  /** How the backend is to hold the weights, made as they are read; fp32 when absent. */
  readonly dtype?: WeightDtypeV1;
  /** A sliding window shorter than the positions: refused (default), or positions limited to it. */
  readonly slidingWindow?: 'refuse' | 'limit-positions';
  /** Called as the weights are read, after each tensor (bytes per weights file). */
  readonly onProgress?: (progress: { file: string; loaded: number; total: number }) => void;
  /** Stops reading: the backend's creation rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/**
 * What a backend is asked to run: one of the built-in kinds, or any other kind a backend defines
 * as an interface extending `ModelSourceBase` (declare a variable of that type, then pass it on).
 */
export type ModelSource = DecoderModelSource | OnnxModelSource | DecoderFolderSource | ModelSourceBase;

/** Narrows to decoder weights in memory. */
export function isDecoderSource(source: ModelSource): source is DecoderModelSource {
  return source.kind === 'decoder' && typeof (source as { model?: unknown }).model === 'object' && (source as { model?: unknown }).model !== null;
}

/** Narrows to a weights folder on disk, not yet read. */
export function isDecoderFolderSource(source: ModelSource): source is DecoderFolderSource {
  return source.kind === 'decoder-folder' && typeof (source as { folder?: unknown }).folder === 'string';
}

/** Narrows to an ONNX graph (on disk, at a URL, or in memory with `bytes`). */
export function isOnnxSource(source: ModelSource): source is OnnxModelSource {
  return source.kind === 'onnx' && typeof (source as { path?: unknown }).path === 'string';
}

const builtInKinds: Readonly<Record<string, string>> = {
  decoder: 'decoder weights in memory',
  onnx: 'ONNX graphs',
  'decoder-folder': 'weights folders on disk',
};

/**
 * The reason a backend gives for skipping a source of a kind it does not run, e.g.
 * `backend "tiny" runs decoder weights in memory, not ONNX graphs`, or for a kind of its own
 * `backend "tiny" runs decoder weights in memory, not "acme.remote-endpoint" sources`.
 */
export function unsupportedSourceReason(backend: string, source: ModelSource, supported: readonly string[]): string {
  const spell = (kind: string) => builtInKinds[kind] ?? `"${kind}" sources`;
  return `backend "${backend}" runs ${supported.map(spell).join(' and ')}, not ${spell(source.kind)}`;
}

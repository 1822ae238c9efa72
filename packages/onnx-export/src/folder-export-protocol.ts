import { InvalidInputError, ModelLoadError, type DecoderConfig, type HeadSpec } from '@reward-lens/spec';
import type { OnnxExportOptions } from './export-decoder-to-onnx.js';

/** What the export thread is given (its `workerData`): the folder to read, how, and where to write the graph. */
export interface FolderExportRequest {
  folder: string;
  heads: readonly HeadSpec[];
  slidingWindow?: 'refuse' | 'limit-positions';
  /** An empty folder the graph is written into (the caller removes it). */
  into: string;
  /** How the graph is written; its `dtype` is also how the folder is read (q8 and q4 quantized as read). */
  options: OnnxExportOptions;
}

/** An error as it crosses from the thread: its kind and the fields its class is built from. */
export interface ThreadError {
  code?: string;
  name: string;
  /** The message without the file or location prefix its class adds. */
  message: string;
  file?: string;
  setting?: string;
  location?: string;
}

/** What the export thread posts back. */
export type FolderExportReply =
  | { type: 'progress'; progress: { file: string; loaded: number; total: number } }
  | { type: 'done'; graph: string; config: DecoderConfig; headTensors: Map<string, Float32Array>; notes: string[] }
  | { type: 'error'; error: ThreadError };

function unprefixed(message: string, prefix: string | undefined): string {
  return prefix !== undefined && message.startsWith(`${prefix}: `) ? message.slice(prefix.length + 2) : message;
}

/** An error thrown in the thread, as it is posted back. */
export function describeThreadError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const fields = error as Error & { code?: unknown; file?: unknown; setting?: unknown; location?: unknown };
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const file = text(fields.file);
  const location = text(fields.location);
  return {
    name: error.name,
    message: unprefixed(unprefixed(error.message, file), location),
    ...(text(fields.code) !== undefined ? { code: text(fields.code) } : {}),
    ...(file !== undefined ? { file } : {}),
    ...(text(fields.setting) !== undefined ? { setting: text(fields.setting) } : {}),
    ...(location !== undefined ? { location } : {}),
  };
}

/** The thread's error rebuilt on this side: a ModelLoadError or InvalidInputError as thrown there, any other as an Error of its name. */
export function threadErrorToError(error: ThreadError): Error {
  if (error.code === ModelLoadError.code) {
    return new ModelLoadError(error.message, {
      ...(error.file !== undefined ? { file: error.file } : {}),
      ...(error.setting !== undefined ? { setting: error.setting } : {}),
    });
  }
  if (error.code === InvalidInputError.code) return new InvalidInputError(error.message, error.location !== undefined ? { location: error.location } : {});
  const rebuilt = new Error(error.message);
  rebuilt.name = error.name;
  return rebuilt;
}

/**
 * The parts of an onnxruntime JavaScript module the backend uses, typed by their shape so that
 * onnxruntime-node's and onnxruntime-web's modules (both re-exporting onnxruntime-common) fit
 * without this package depending on either: `import * as ort from 'onnxruntime-web'` is an
 * `OrtModule`.
 */
export interface OrtModule<SessionOptions extends object = object> {
  readonly InferenceSession: {
    create(path: string, options?: SessionOptions): Promise<OrtSession>;
    create(bytes: Uint8Array, options?: SessionOptions): Promise<OrtSession>;
  };
  readonly Tensor: OrtTensorConstructor;
}

/** The parts of an onnxruntime `Tensor` the backend reads. */
export interface OrtTensor {
  readonly data: unknown;
  readonly dims: readonly number[];
}

export interface OrtTensorConstructor {
  new (type: 'int64', data: BigInt64Array, dims: readonly number[]): OrtTensor;
  new (type: 'float32', data: Float32Array, dims: readonly number[]): OrtTensor;
  new (type: 'float16', data: Uint16Array, dims: readonly number[]): OrtTensor;
}

/** An entry of `inputMetadata` / `outputMetadata` (onnxruntime 1.21 and later). */
export type OrtValueMetadata =
  | { readonly name: string; readonly isTensor: false }
  | { readonly name: string; readonly isTensor: true; readonly type: string; readonly shape: readonly (number | string)[] };

/** An onnxruntime `InferenceSession`. */
export interface OrtSession {
  readonly inputMetadata: readonly OrtValueMetadata[];
  readonly outputMetadata: readonly OrtValueMetadata[];
  run(feeds: Record<string, OrtTensor>, fetches: string[]): Promise<Readonly<Record<string, OrtTensor>>>;
  release(): Promise<void>;
}

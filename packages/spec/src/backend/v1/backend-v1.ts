import type { Capabilities } from '../../capabilities.js';

/** Float precision a backend computes in; conformance tolerances follow from it. */
export type PrecisionV1 = 'fp32' | 'fp16' | 'bf16';

/**
 * How a backend holds the model's weights, as transformers.js's `dtype` names them: `fp32`,
 * `fp16` and `bf16` floats, or quantized, `q8` (8-bit integers with a float scale per output
 * channel) and `q4` (4-bit integers with a float scale per block of 32 weights). How they are
 * multiplied is the backend's choice (widened to its `precision`, or on integers over rounded
 * activations, as backend-tiny's SIMD q8 kernel does); `precision` declares the resulting
 * accuracy, from which conformance tolerances follow.
 */
export type WeightDtypeV1 = 'fp32' | 'fp16' | 'bf16' | 'q8' | 'q4';

/** Every `WeightDtypeV1`, in order of decreasing size. */
export const weightDtypes: readonly WeightDtypeV1[] = ['fp32', 'fp16', 'bf16', 'q8', 'q4'];

/** What a head of the model computes at a position. */
export type HeadKindV1 =
  /** Next-token logits over the vocabulary (read chosen candidate tokens with `columns`). */
  | 'lm'
  /** Per-token class logits (a token-classification head, e.g. 2 classes). */
  | 'token-classification'
  /** One scalar per token (a value head, or a sequence classifier's reward head). */
  | 'value';

/** A head as callers see it. What applying it computes is the model's `HeadDescription` (`describeHead`). */
export interface HeadInfoV1 {
  /** The name requests use, e.g. `lm`, `classifier`, `value`. */
  name: string;
  kind: HeadKindV1;
  /** Outputs per position: vocabulary size, number of classes, or 1. */
  width: number;
}

/** Facts about the loaded model that callers need to build requests. */
export interface ModelInfoV1 {
  /** A short description, e.g. `llama hidden=64 layers=2 heads=4/2`. */
  description: string;
  vocabSize: number;
  hiddenSize: number;
  numLayers: number;
  /** Longest sequence (past plus new tokens) the model accepts. */
  maxPositions: number;
  heads: readonly HeadInfoV1[];
  /** How the weights are held (`fp32` when absent): quantized weights give scores that differ from the fp32 model's. */
  weightDtype?: WeightDtypeV1;
  /**
   * What the backend chose that its user should know, as sentences: a fallback it took (slower
   * kernels, fewer threads than asked) and why. `resolveBackend` adds them to its notes, so every
   * result a ProcessRM gives says so. Absent when there is nothing to say.
   */
  notes?: readonly string[];
}

/**
 * What to read from a forward pass. `positions[row]` lists positions of that row of the
 * padded batch (indices into the row, 0-based). Reading a padding position is a contract error.
 */
export type ReadRequestV1 =
  | {
      kind: 'head';
      head: string;
      positions: readonly (readonly number[])[];
      /** Only these output columns (candidate token ids of an `lm` head, say); all when absent. */
      columns?: readonly number[];
      /**
       * Apply the head to the hidden state after this many decoder layers (0 = embeddings,
       * numLayers = the usual final read). Needs LINEAR_READOUT when not numLayers.
       *
       * A head read at any layer applies the whole head as `describeHead` describes it: the
       * final norm (`model.norm.weight`) first, then the head's hidden layers (with their
       * activation), then its output projection; an inner layer's read is the head applied to
       * that layer's hidden state as if it were the last.
       */
      layer?: number;
    }
  | {
      kind: 'hidden';
      /** 0 = embeddings, k = output of decoder layer k (before the final norm). Needs ACTIVATIONS. */
      layer: number;
      positions: readonly (readonly number[])[];
    };

/**
 * One forward pass over a rectangular, padded batch.
 *
 * Padding may sit on either side of a row; `attentionMask` marks real tokens with 1. A real
 * token's position id is the number of real tokens before it in its row, plus the length of
 * its row's `past` cache when one is given.
 */
export interface ForwardRequestV1 {
  batchSize: number;
  sequenceLength: number;
  /** Row-major `[batchSize, sequenceLength]`. Padding ids are ignored but must be valid (use 0). */
  inputIds: Int32Array;
  /** Row-major `[batchSize, sequenceLength]`, 1 for real tokens and 0 for padding. */
  attentionMask: Uint8Array;
  reads: readonly ReadRequestV1[];
  /** Per row: a cache whose tokens precede this row's tokens. Needs `info.supportsCache`. */
  past?: readonly (CacheHandleV1 | null)[];
  /** Return, per row, a cache covering the row's past and its real tokens. Needs `info.supportsCache`. */
  returnCache?: boolean;
  /**
   * With `returnCache`: per row, how many tokens (past included) its returned cache covers, from
   * the past's length to the past plus the row's real tokens (the default). Tokens after that are
   * run and read but not kept, so a scored prefix keeps only the tokens no next step can change
   * and still reads its last ones in the same pass. Needs `supportsCacheLengths`.
   */
  cacheLengths?: readonly number[];
}

/** The values of one read, in request order. */
export interface ReadResultV1 {
  /** Values per position: the head's width (or `columns.length`), or the hidden size. */
  width: number;
  /** Per row: `positions[row].length * width` values, position-major. */
  values: Float32Array[];
}

export interface ForwardResultV1 {
  reads: ReadResultV1[];
  /** Per row, when `returnCache` was set. */
  caches?: CacheHandleV1[];
}

/**
 * The keys and values of a scored prefix, kept by the backend. Opaque to callers.
 * A forward pass only reads its `past`: it never changes what a handle covers, so one handle can
 * be the past of several continuations. `fork()` gives another handle on the same prefix, released
 * on its own (backends share the memory between them rather than copy it).
 */
export interface CacheHandleV1 {
  readonly specificationVersion: 'v1';
  /** Real tokens covered. */
  readonly length: number;
  fork(): CacheHandleV1;
  /** Frees the memory; using the handle afterwards is a contract error. Idempotent. */
  release(): void;
}

/**
 * d(loss)/d(read values) for one pass: per read (in request order), per row, an array shaped like
 * that read's values (`positions[row].length * width`).
 */
export type ReadGradientsV1 = readonly (readonly Float32Array[])[];

/**
 * One forward pass and one backward pass (GRADIENTS). The forward part is a `ForwardRequestV1`
 * without caches; the caller's loss is any scalar function of the reads, given by its gradient.
 */
export interface BackwardRequestV1 extends ForwardRequestV1 {
  /**
   * d(loss)/d(read values), or a function of the forward's reads that returns it. The function
   * is called once, between the forward and the backward pass, so a loss that depends on the
   * reads (a cross-entropy, say) costs one pass, not two.
   */
  readGradients: ReadGradientsV1 | ((reads: readonly ReadResultV1[]) => ReadGradientsV1);
  /** Which gradients to return (default both): the parameters' and the input embeddings'. */
  wrt?: { parameters?: boolean; inputEmbeddings?: boolean };
  /**
   * Per row, `[sequenceLength, hiddenSize]` position-major: the vectors fed into the first layer
   * instead of the embedding rows of `inputIds` (at real positions; padding is ignored), as
   * integrated gradients needs (the scores along a path of scaled embeddings). The embedding
   * table then gets no gradient from the input (a tied LM head's use of it still counts).
   */
  inputEmbeddings?: readonly Float32Array[];
}

export interface BackwardResultV1 {
  /** The forward pass's reads, as `doForward` gives them. */
  reads: ReadResultV1[];
  /**
   * d(loss)/d(tensor) by tensor name, the names of `DecoderModel.tensors` (Hugging Face's): every
   * tensor of the model, a tied embedding once with both of its uses summed.
   */
  parameters?: ReadonlyMap<string, Float32Array>;
  /**
   * Per row, `[sequenceLength, hiddenSize]` position-major: d(loss)/d(the embedding vector fed in
   * at that position). Zeros at padding.
   */
  inputEmbeddings?: Float32Array[];
}

/**
 * A direction in the space of the parameters and the input embeddings: tangents by tensor name
 * (a tensor left out is zero) and per row `[sequenceLength, hiddenSize]` (left out: zero).
 */
export interface TangentV1 {
  parameters?: ReadonlyMap<string, Float32Array>;
  inputEmbeddings?: readonly Float32Array[];
}

/** An exact Hessian-vector product of the loss over the parameters and the input embeddings (HVP). */
export interface HvpRequestV1 extends BackwardRequestV1 {
  /** The vector `v`. */
  direction: TangentV1;
  /**
   * The loss's own curvature in the reads: given the reads and their directional derivatives
   * `J·v`, returns `∇²loss(reads)·(J·v)`, shaped like `readGradients`. Leave it out for a loss
   * that is linear in the reads (a step score read raw, a sum of logits).
   */
  readHessianProduct?: (reads: readonly ReadResultV1[], tangents: readonly ReadResultV1[]) => ReadGradientsV1;
}

export interface HvpResultV1 extends BackwardResultV1 {
  /** `H·v` in the two blocks the gradient has (those `wrt` asks for). */
  hvp: { parameters?: ReadonlyMap<string, Float32Array>; inputEmbeddings?: Float32Array[] };
  /** `J·v`: each read's directional derivative, shaped like the reads. */
  readTangents: ReadResultV1[];
}

/**
 * The contract a forward-pass backend fulfils. Methods named `do*` are for the SDK to call;
 * users go through `ProcessRM`.
 */
export interface BackendV1 {
  readonly specificationVersion: 'v1';
  /** Registry name, e.g. `tiny`, `onnx-node`. */
  readonly name: string;
  readonly capabilities: Capabilities;
  readonly precision: PrecisionV1;
  /** True when `past` and `returnCache` are supported. */
  readonly supportsCache: boolean;
  /** True when `cacheLengths` is honoured (absent: false; callers then run the kept and the unkept tokens in separate passes). */
  readonly supportsCacheLengths?: boolean;
  readonly info: ModelInfoV1;
  doForward(request: ForwardRequestV1): Promise<ForwardResultV1>;
  /**
   * Present exactly when `capabilities` has GRADIENTS: the gradient of a scalar function of the
   * reads with respect to every parameter and to the input embeddings. Backends that do not
   * train leave it out and stay v1 backends.
   */
  doBackward?(request: BackwardRequestV1): Promise<BackwardResultV1>;
  /** Present exactly when `capabilities` has HVP: exact Hessian-vector products (not finite differences). */
  doHvp?(request: HvpRequestV1): Promise<HvpResultV1>;
  /**
   * Optional, for training (with GRADIENTS): new values for named parameters, same sizes,
   * copied in (the arrays may be the very ones the model was created from, updated in place).
   */
  doUpdateParameters?(parameters: ReadonlyMap<string, Float32Array>): Promise<void>;
  /** Frees the model; later calls are contract errors. Idempotent. */
  dispose(): Promise<void>;
}

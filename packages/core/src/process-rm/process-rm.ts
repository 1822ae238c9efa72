import {
  type BackendV1,
  type ReadRequestV1,
  formatCapabilities,
  hasCapability,
  type Capabilities,
  type CapabilityName,
  InvalidInputError,
  NonFiniteOutputError,
  UnsupportedCapabilityError,
  createEvidence,
  type Evidence,
} from '@reward-lens/spec';
import { calibrateOutcomeEvidence, calibrateStepEvidence } from '../calibration/calibrate-evidence.js';
import type { DomainCheck } from '../domain/domain-check.js';
import { tokenDomainCheck } from '../domain/token-domain.js';
import { checkDomain } from './check-domain.js';
import { validateStepCalibration, type StepCalibration } from '../calibration/step-calibration.js';

import { sequenceClassifierRecipe } from '../recipes/presets.js';
import { plainValueRecipe, recipeGauge, type ReadingRecipe } from '../recipes/reading-recipe.js';
import { segmentSolution } from '../segmenter/segment-solution.js';
import type { Segmentation, StepBoundaryDetector, StepDelimiter } from '../segmenter/types.js';
import {
  readDetectionFeatures,
  type DetectionContext,
  type DetectionFeatureOptions,
  type SolutionTokenFeatures,
} from '../step-detection/detection-features.js';
import type { StepDetector } from '../step-detection/step-detector.js';
import type { PrmTokenizer } from '@reward-lens/tokenizers';
import { activateScores } from './activate-scores.js';
import { forwardReadsInBatches } from './forward-batches.js';
import { boundByProbabilities, likelihoodPositions, tokenProbabilities } from './likelihood-bound.js';
import type { OutcomeScores, PrefixScores, StepActivations, StepScores } from './process-rm-results.js';
import { applyLearnedSteps, resolveStepDetection, type StepDetectionMode, type StepDetectionSetting } from './learned-steps.js';
import { normalizeScoringInput, type NormalizedInput, type ScoringInput } from './scoring-input.js';
import { loadPretrained, type LoadedPretrained, type PretrainedOptions } from './load-pretrained.js';
import { loadFromFiles, type PretrainedFiles } from './load-from-files.js';
import type { ScoringOptions, TokenizedBatch } from './tokenized-batch.js';
import { tokenizeInputs } from './tokenize-inputs.js';
import { ScoredPrefix, type PrefixContext } from './scored-prefix.js';
import { stableTokenCount, stepJoinerOf } from './stable-token-count.js';
import { computeScoreHvp, type ScoreHvp, type ScoreHvpOptions } from './score-hvp.js';
import { computeStepGradients, type DerivativeContext, type StepGradientOptions, type StepGradients } from './step-gradients.js';
import { loadTinyModel, type TinyModelOptions } from './load-tiny.js';
import { tokenizePair, type TokenizedPair, type TokenizeOptions } from './tokenize-pair.js';
import { connectVllm, type VllmOptions } from '../remote/connect-vllm.js';
import type { RemoteStepReader } from '../remote/vllm-step-reader.js';

export type { ScoringOptions } from './tokenized-batch.js';

export interface ProcessRMOptions {
  /** How the model is read; defaults to a raw value head at each step's last token. */
  recipe?: ReadingRecipe;
  /** What separates steps in a solution given as one text. Default: the recipe's (`"\n"` for the plain recipe). */
  delimiter?: StepDelimiter;
  /** A text-only step finder, used when the delimiter does not split a solution into at least two steps. */
  detector?: StepBoundaryDetector;
  /**
   * When the learned step-boundary detector splits a solution given as one text: `'auto'`
   * (default) where the delimiter gives fewer than two steps, `'learned'` always (the delimiter
   * is not used; an error when there is no usable detector), `'delimiter'` never.
   */
  stepDetection?: StepDetectionMode;
  /**
   * The learned step-boundary detector (plain data, as `step-detector.json` holds it): a probe over
   * this model's hidden states. `fromPretrained` reads the folder's; `null` uses none.
   */
  stepDetector?: StepDetector | null;
  /** `'none'` (default) rejects sequences longer than the model's positions; `'left'` keeps their end. */
  truncation?: 'none' | 'left';
  /** Pairs per forward pass. Default 8. */
  batchSize?: number;
  /** Which side of a batch row holds padding. Default `'right'`. */
  padding?: 'left' | 'right';
  /** Notes carried into every result (which backend ran, why others were skipped). */
  notes?: readonly string[];
  /** Maps step and outcome scores to calibrated probabilities (trust `CALIBRATED`); see `withCalibration`. */
  calibration?: StepCalibration;
  /**
   * Checks that a record is text of the model's domain (a grammar, say), beside the calibration's
   * own vocabulary check. A record outside is scored, noted (`meta.outOfDomain`), and not `CALIBRATED`.
   */
  domainChecks?: readonly DomainCheck[];
}

/**
 * A process reward model: one forward pass per solution reads the reward at every step boundary.
 * The last step's score is the outcome score, so the step curve decomposes the solution's reward.
 *
 * @example
 * const prm = await ProcessRM.fromTiny({ seed: 0 });
 * const evidence = await prm.stepScores([['Compute (2+2)*3-5.', 'First, 2+2=4.\nThen, 4*3=12.\nFinally, 12-5=7.']]);
 * evidence.value.curves[0]; // three scores, the last equal to prm.score(...)'s value
 */
export class ProcessRM {
  readonly backend: BackendV1;
  readonly tokenizer: PrmTokenizer;
  readonly recipe: ReadingRecipe;
  /** The attached calibration, if any (`withCalibration`). */
  readonly calibration: StepCalibration | undefined;
  private readonly construction: ProcessRMOptions;
  private readonly domainChecks: readonly DomainCheck[];
  private readonly options: Required<
    Omit<ProcessRMOptions, 'detector' | 'recipe' | 'notes' | 'calibration' | 'stepDetection' | 'stepDetector' | 'domainChecks'>
  > & {
    detector?: StepBoundaryDetector;
  };
  private readonly stepDetection: StepDetectionSetting;
  private readonly baseNotes: readonly string[];
  private readonly columns: number[] | undefined;
  /** Set when the scores come from a remote engine (fromVllm) instead of the backend's forward pass. */
  private remote: RemoteStepReader | undefined;
  private prefixContext: PrefixContext | undefined;

  private constructor(backend: BackendV1, tokenizer: PrmTokenizer, options: ProcessRMOptions) {
    this.backend = backend;
    this.tokenizer = tokenizer;
    this.recipe = options.recipe ?? plainValueRecipe;
    this.construction = options;
    this.calibration = options.calibration === undefined ? undefined : validateStepCalibration(options.calibration);
    const spec = this.calibration?.domainCheck;
    this.domainChecks = [...(spec ? [tokenDomainCheck(spec)] : []), ...(options.domainChecks ?? [])];
    this.options = {
      delimiter: options.delimiter ?? (options.recipe ?? plainValueRecipe).delimiter,
      truncation: options.truncation ?? 'none',
      batchSize: options.batchSize ?? 8,
      padding: options.padding ?? 'right',
      ...(options.detector ? { detector: options.detector } : {}),
    };
    if (!Number.isInteger(this.options.batchSize) || this.options.batchSize < 1)
      throw new InvalidInputError(`batchSize must be a positive integer, got ${this.options.batchSize}`);
    this.baseNotes = options.notes ?? [`backend "${backend.name}" (${backend.info.description})`];
    this.columns = resolveColumns(this.recipe, tokenizer);
    checkRecipeFitsBackend(this.recipe, this.columns, backend);
    this.stepDetection = resolveStepDetection(options.stepDetection, options.stepDetector, backend, this.recipe);
  }

  /** Wraps a backend and a tokenizer. The recipe says how the backend's head is read. */
  static fromBackend(backend: BackendV1, tokenizer: PrmTokenizer, options: ProcessRMOptions = {}): ProcessRM {
    return new ProcessRM(backend, tokenizer, options);
  }

  /**
   * The seeded tiny PRM: random weights (same seed, same weights, on every platform), the byte-BPE
   * tokenizer, a raw value head. Scores are meaningless; segmentation and reads are exact.
   */
  static async fromTiny(options: TinyModelOptions & ProcessRMOptions = {}): Promise<ProcessRM> {
    const { backend, tokenizer, notes } = await loadTinyModel(options);
    return new ProcessRM(backend, tokenizer, { ...options, notes: [...notes, ...(options.notes ?? [])] });
  }

  /**
   * A PRM from a Hugging Face-style folder (Node): `config.json`, safetensors weights (or an ONNX
   * graph), `tokenizer.json`. The recipe says how the family is read (inferred from config.json's
   * architecture when it can be). Nothing in the folder is executed.
   *
   * @example
   * const prm = await ProcessRM.fromPretrained('models/Qwen2.5-Math-PRM-7B', { recipe: 'qwen2.5-math-prm' });
   */
  static async fromPretrained(folder: string, options: PretrainedOptions & Omit<ProcessRMOptions, 'recipe'> = {}): Promise<ProcessRM> {
    return ProcessRM.fromLoaded(await loadPretrained(folder, options), options);
  }

  /**
   * A PRM from a model folder's files, wherever they are (browser-safe): files a user picked
   * (`<input type="file" webkitdirectory>`), fetched bytes, or any `ModelFiles`. The folder is
   * read as `fromPretrained` reads one on disk, in every layout it loads: safetensors (one file or
   * shards), an ONNX graph (`model.onnx`, `onnx/model.onnx`), the tokenizer files.
   *
   * @example
   * const prm = await ProcessRM.fromFiles({ 'config.json': configBytes, 'model.safetensors': weightsBlob, 'tokenizer.json': tokenizerBytes });
   */
  static async fromFiles(files: PretrainedFiles, options: PretrainedOptions & Omit<ProcessRMOptions, 'recipe'> = {}): Promise<ProcessRM> {
    return ProcessRM.fromLoaded(await loadFromFiles(files, options), options);
  }

  /** A loaded folder as a PRM: its recipe and notes, and its step-detector.json unless the options give one (or `null`). */
  private static fromLoaded(loaded: LoadedPretrained, options: Omit<ProcessRMOptions, 'recipe'>): ProcessRM {
    const { backend, tokenizer, recipe, notes, stepDetector } = loaded;
    const detector = options.stepDetector === undefined ? stepDetector : options.stepDetector;
    return new ProcessRM(backend, tokenizer, { ...options, recipe, stepDetector: detector ?? null, notes: [...notes, ...(options.notes ?? [])] });
  }

  /**
   * An outcome reward model (a sequence classifier) read at every step end: its reward head is
   * reused verbatim, only where it is read changes. Give a backend whose model has a one-output
   * head (and its tokenizer), or a folder holding a `*ForSequenceClassification` model with one label.
   *
   * @example
   * const prm = ProcessRM.fromSequenceClassifier(backend, tokenizer, { delimiter: '\n\n' });
   */
  static fromSequenceClassifier(model: BackendV1, tokenizer: PrmTokenizer, options?: Omit<ProcessRMOptions, 'recipe'>): ProcessRM;
  static fromSequenceClassifier(folder: string, options?: Omit<PretrainedOptions, 'recipe'> & Omit<ProcessRMOptions, 'recipe'>): Promise<ProcessRM>;
  static fromSequenceClassifier(
    model: BackendV1 | string,
    tokenizerOrOptions?: PrmTokenizer | (Omit<PretrainedOptions, 'recipe'> & Omit<ProcessRMOptions, 'recipe'>),
    options: Omit<ProcessRMOptions, 'recipe'> = {},
  ): ProcessRM | Promise<ProcessRM> {
    if (typeof model === 'string') {
      return ProcessRM.fromPretrained(model, { ...(tokenizerOrOptions as PretrainedOptions), recipe: 'sequence-classifier' });
    }
    const rewardHead = model.info.heads.find((head) => head.kind === 'value') ?? model.info.heads.find((head) => head.width === 1);
    if (!rewardHead) {
      throw new InvalidInputError(
        `backend "${model.name}" has no one-output reward head (heads: ${model.info.heads.map((head) => `${head.name} (${head.width})`).join(', ')})`,
      );
    }
    return new ProcessRM(model, tokenizerOrOptions as PrmTokenizer, { ...options, recipe: { ...sequenceClassifierRecipe, head: rewardHead.name } });
  }

  /**
   * The same model (sharing its backend: dispose one of them) with a fitted calibration attached:
   * `score` and `stepScores` then give calibrated probabilities with trust `CALIBRATED`, and their
   * notes name the calibration set, its size and its domain. `prefixScores` stays uncalibrated.
   *
   * @example
   * const calibrated = prm.withCalibration(JSON.parse(readFileSync('calibration.json', 'utf8')));
   */
  withCalibration(calibration: StepCalibration): ProcessRM {
    const calibrated = new ProcessRM(this.backend, this.tokenizer, { ...this.construction, notes: this.baseNotes, calibration });
    calibrated.remote = this.remote;
    return calibrated;
  }

  /**
   * A PRM served by vLLM (its `/pooling` endpoint, STEP pooling): the recipe's template and step
   * tags are rendered here, the server returns one `[negative, positive]` row per step tag, and
   * the results are the same type as a local model's, with notes naming the server and model.
   * Browser-safe (fetch only). Retries, timeouts, a concurrency limit and an AbortSignal are options.
   *
   * @example
   * const prm = await ProcessRM.fromVllm('http://127.0.0.1:8000', { model: 'Qwen/Qwen2.5-Math-PRM-7B', recipe: 'qwen2.5-math-prm' });
   */
  static async fromVllm(baseUrl: string, options: VllmOptions): Promise<ProcessRM> {
    const { backend, tokenizer, recipe, reader, notes } = await connectVllm(baseUrl, options);
    const prm = new ProcessRM(backend, tokenizer, {
      recipe,
      notes,
      ...(options.delimiter !== undefined ? { delimiter: options.delimiter } : {}),
      ...(options.detector ? { detector: options.detector } : {}),
      ...(options.truncation ? { truncation: options.truncation } : {}),
    });
    prm.remote = reader;
    return prm;
  }

  /** What this model can do: the backend's capabilities. */
  get caps(): Capabilities {
    return this.backend.capabilities;
  }

  /** Which backend runs this model, and why others were skipped when it was resolved. */
  get notes(): readonly string[] {
    return this.baseNotes;
  }

  /** The learned step-boundary detector this model runs (`stepDetection` not `'delimiter'`), if any. */
  get stepDetector(): StepDetector | undefined {
    return this.stepDetection.detector;
  }

  /** The readable form, e.g. `SCORES|PREFIX_SCORES|ACTIVATIONS|LINEAR_READOUT|STEP_SCORES`. */
  get capsString(): string {
    return formatCapabilities(this.backend.capabilities);
  }

  /**
   * One pair laid out and mapped to tokens: ids, step spans, read positions, meta. Synchronous, so
   * it splits at the delimiter only; `segment` gives the pair as the scoring methods see it.
   */
  tokenize(input: ScoringInput): TokenizedPair {
    return tokenizePair(this.tokenizer, this.recipe, normalizeScoringInput(input, 'input'), this.tokenizeOptions());
  }

  /**
   * One pair as the scoring methods lay it out: `tokenize`, with the learned step-boundary
   * detector run where it applies (`meta.stepMethod` is then `'learned'`).
   *
   * @example
   * const pair = await prm.segment(['Compute 2+2.', 'First 2+2=4. The answer is 4.']);
   * pair.steps.map((step) => step.text); // the steps the detector found, when the model has one
   */
  async segment(input: ScoringInput): Promise<TokenizedPair> {
    return (await this.tokenizeAll([input], {})).pairs[0]!;
  }

  /** One outcome scalar per pair (the reward at the last step's read position). */
  async score(inputs: readonly ScoringInput[], options: ScoringOptions = {}): Promise<Evidence<OutcomeScores>> {
    this.require('SCORES', 'score');
    const batch = await this.tokenizeAll(inputs, options);
    const curves = await this.readHead(batch, (pair) => [pair.readPositions[pair.readPositions.length - 1]!]);
    const evidence = this.evidence({ values: Float32Array.from(curves, (curve) => curve[0] ?? Number.NaN), errors: batch.errors }, batch);
    return calibrateOutcomeEvidence(
      evidence,
      this.calibration,
      batch.pairs.map((pair) => pair.meta.outOfDomain !== undefined),
    );
  }

  /**
   * Per pair, the score at every step boundary, all from one forward pass.
   * `layer` reads the reward head at an inner layer (LINEAR_READOUT).
   */
  async stepScores(inputs: readonly ScoringInput[], options: ScoringOptions & { layer?: number } = {}): Promise<Evidence<StepScores>> {
    this.require('STEP_SCORES', 'stepScores');
    if (options.layer !== undefined && options.layer !== this.backend.info.numLayers) this.require('LINEAR_READOUT', 'stepScores at an inner layer');
    const batch = await this.tokenizeAll(inputs, options);
    const curves = await this.readHead(batch, (pair) => pair.readPositions.filter((position) => position >= 0), options.layer);
    const fullCurves = batch.pairs.map((pair, index) => {
      // Steps cut off by left truncation have no score: NaN, and the pair's notes say so.
      const curve = new Float32Array(pair.steps.length).fill(Number.NaN);
      let next = 0;
      pair.readPositions.forEach((position, step) => {
        if (position >= 0) curve[step] = curves[index]![next++]!;
      });
      return curve;
    });
    const evidence = this.evidence(
      {
        stepCounts: batch.pairs.map((pair) => pair.steps.length),
        curves: fullCurves,
        steps: batch.pairs.map((pair) => pair.steps),
        meta: batch.pairs.map((pair) => pair.meta),
        errors: batch.errors,
      },
      batch,
      options.layer !== undefined ? [`read at layer ${options.layer} of ${this.backend.info.numLayers}`] : [],
    );
    return calibrateStepEvidence(evidence, this.calibration);
  }

  /** Per pair, the reward read at every token position: how the reward evolves through the text. */
  async prefixScores(inputs: readonly ScoringInput[], options: ScoringOptions = {}): Promise<Evidence<PrefixScores>> {
    this.require('PREFIX_SCORES', 'prefixScores');
    const batch = await this.tokenizeAll(inputs, options);
    const curves = await this.readHead(batch, (pair) => Array.from(pair.inputIds, (_, position) => position));
    return this.evidence(
      { curves, stepReadPositions: batch.pairs.map((pair) => pair.readPositions), meta: batch.pairs.map((pair) => pair.meta), errors: batch.errors },
      batch,
    );
  }

  /** Per pair, the residual stream after `layer` layers at every step's read position (ACTIVATIONS). */
  async stepActivations(inputs: readonly ScoringInput[], options: ScoringOptions & { layer: number }): Promise<Evidence<StepActivations>> {
    this.require('ACTIVATIONS', 'stepActivations');
    const batch = await this.tokenizeAll(inputs, options);
    const { values, width } = await this.forwardValid(
      batch,
      (pair) => pair.readPositions.filter((position) => position >= 0),
      (positions) => ({
        kind: 'hidden',
        layer: options.layer,
        positions,
      }),
    );
    return createEvidence(
      { layer: options.layer, hiddenSize: width || this.backend.info.hiddenSize, values, meta: batch.pairs.map((pair) => pair.meta), errors: batch.errors },
      { gauge: 'INVARIANT', notes: this.notesFor(batch) },
    );
  }

  /**
   * What a learned step-boundary detector reads (ACTIVATIONS): each solution laid out as the
   * recipe lays out one step, and the hidden states after each of `layers` layers at every token of
   * the solution (beside the next token's with `lookahead: 1`). For fitting detectors
   * (`@reward-lens/train`); applying one is `stepDetection`'s job.
   */
  async detectionFeatures(inputs: readonly { problem: string; solution: string }[], options: DetectionFeatureOptions): Promise<SolutionTokenFeatures[]> {
    this.require('ACTIVATIONS', 'detectionFeatures');
    return readDetectionFeatures(this.detectionContext(this.tokenizeOptions()), inputs, options);
  }

  /**
   * Per pair and step, the gradient of the step's score with respect to each input token's
   * embedding (GRADIENTS): its norm and gradient×input per token, or the vectors. Tokens after a
   * step's read position get exactly zero.
   *
   * @example
   * const { value } = await prm.stepGradients([pair]);
   * value.pairs[0].steps[1].norms; // one attribution per token of the pair
   */
  async stepGradients(inputs: readonly ScoringInput[], options: StepGradientOptions = {}): Promise<Evidence<StepGradients>> {
    this.require('GRADIENTS', 'stepGradients');
    const batch = await this.tokenizeAll(inputs, options);
    return this.evidence(await computeStepGradients(this.derivativeContext(), batch, options), batch);
  }

  /**
   * The exact Hessian-vector product of one step's score (default: the outcome score) over the
   * parameters and the input embeddings, along `direction` (HVP), with the gradient.
   */
  async hvp(input: ScoringInput, options: ScoreHvpOptions): Promise<Evidence<ScoreHvp>> {
    this.require('HVP', 'hvp');
    const batch = await this.tokenizeAll([input], {});
    return this.evidence(await computeScoreHvp(this.derivativeContext(), batch.pairs[0]!, options), batch);
  }

  /**
   * A scored prefix of a solution, for step-level search: extending it by a step runs only the
   * new tokens against the backend's KV cache, and its step scores equal a full pass's.
   */
  async prefix(problem: string): Promise<ScoredPrefix> {
    this.require('STEP_SCORES', 'prefix');
    if (!this.backend.supportsCache) {
      throw new UnsupportedCapabilityError({ capability: 'KV cache', backend: this.backend.name, operation: 'prefix scoring with a cache' });
    }
    if (typeof problem !== 'string') throw new InvalidInputError('problem must be a string');
    // One context per ProcessRM: prefixes of any of its problems can be extended together.
    this.prefixContext ??= {
      backend: this.backend,
      tokenizer: this.tokenizer,
      recipe: this.recipe,
      columns: this.columns,
      batchSize: this.options.batchSize,
      tokenize: (text: string, steps: readonly string[]) => this.tokenize({ problem: text, steps }),
      stableTokens: (pair: TokenizedPair) => stableTokenCount(this.tokenizer, this.recipe, pair, stepJoinerOf(this.recipe, this.options.delimiter)),
    };
    return new ScoredPrefix(this.prefixContext, problem, [], [], new Float32Array(0), undefined);
  }

  /** Frees the backend. */
  async dispose(): Promise<void> {
    await this.backend.dispose();
  }

  private derivativeContext(): DerivativeContext {
    return { backend: this.backend, recipe: this.recipe, columns: this.columns, batchSize: this.options.batchSize, padTokenId: this.tokenizer.padTokenId };
  }

  private require(capability: CapabilityName, operation: string): void {
    if (!hasCapability(this.backend.capabilities, capability)) {
      throw new UnsupportedCapabilityError({ capability, backend: this.backend.name, operation });
    }
  }

  /** Tokenizes every input (see `tokenizeInputs`), then runs the learned step detector where it applies. */
  private async tokenizeAll(inputs: readonly ScoringInput[], options: ScoringOptions): Promise<TokenizedBatch> {
    const tokenizeOptions = this.tokenizeOptions();
    const { batch, normalized, fail } = tokenizeInputs(inputs, options, (input) => tokenizePair(this.tokenizer, this.recipe, input, tokenizeOptions));
    await applyLearnedSteps(
      {
        ...this.detectionContext(tokenizeOptions),
        tokenize: (input: NormalizedInput, segmentation: Segmentation) =>
          tokenizePair(this.tokenizer, this.recipe, input, { ...tokenizeOptions, segmentation }),
        shortfallOf: (input) => segmentSolution(input.solution, { delimiter: tokenizeOptions.delimiter }).delimiterShortfall,
      },
      this.stepDetection,
      normalized,
      batch,
      fail,
    );
    if (this.domainChecks.length > 0) checkDomain(this.domainChecks, normalized, batch);
    return batch;
  }

  /** How the learned detector reads this model: a solution laid out as one step, batched as the scoring methods batch. */
  private detectionContext(tokenizeOptions: TokenizeOptions): DetectionContext {
    return {
      backend: this.backend,
      ...this.batchOptions(),
      layOut: (problem, solution) => tokenizePair(this.tokenizer, this.recipe, { problem, steps: [solution] }, tokenizeOptions),
    };
  }

  private tokenizeOptions(): TokenizeOptions {
    return {
      delimiter: this.options.delimiter,
      ...(this.options.detector ? { detector: this.options.detector } : {}),
      singleStepAdvice: this.stepDetection.advice,
      maxPositions: this.backend.info.maxPositions,
      truncation: this.options.truncation,
    };
  }

  private batchOptions() {
    return { batchSize: this.options.batchSize, padding: this.options.padding, padTokenId: this.tokenizer.padTokenId };
  }

  /** Runs the pairs that tokenized, reading `read(positions)`; unscored pairs get no values. */
  private async forwardValid(
    batch: TokenizedBatch,
    positionsOf: (pair: TokenizedPair) => number[],
    read: (positions: number[][]) => ReadRequestV1,
  ): Promise<{ values: Float32Array[]; width: number; counts: number[] }> {
    const [only] = await this.forwardValidReads(batch, [positionsOf], (perRead) => [read(perRead[0]!)]);
    return only!;
  }

  /** `forwardValid` with several reads in each pass, each at its own positions. */
  private async forwardValidReads(
    batch: TokenizedBatch,
    positionsOf: readonly ((pair: TokenizedPair) => number[])[],
    reads: (perRead: number[][][]) => ReadRequestV1[],
    onRow?: (read: number, pair: TokenizedPair, values: Float32Array, width: number) => Float32Array,
  ): Promise<{ values: Float32Array[]; width: number; counts: number[] }[]> {
    const valid = batch.pairs.flatMap((pair, index) => {
      if (batch.errors[index] !== null) return [];
      const readPositions = positionsOf.map((of) => of(pair));
      return [{ index, sequence: { inputIds: pair.inputIds, positions: readPositions[0]!, readPositions } }];
    });
    const results = await forwardReadsInBatches(
      this.backend,
      valid.map(({ sequence }) => sequence),
      {
        ...this.batchOptions(),
        reads: (_, perRead) => reads(perRead),
        ...(onRow
          ? { onRow: (read: number, row: number, values: Float32Array, width: number) => onRow(read, batch.pairs[valid[row]!.index]!, values, width) }
          : {}),
      },
    );
    return positionsOf.map((_, read) => {
      const result = results[read] ?? { values: [], width: 0 };
      const values: Float32Array[] = batch.pairs.map(() => new Float32Array(0));
      const counts = batch.pairs.map(() => 0);
      valid.forEach(({ index, sequence }, row) => {
        const rowValues = result.values[row]!;
        const bad = rowValues.findIndex((value) => !Number.isFinite(value));
        if (bad >= 0) {
          const { name, info } = this.backend;
          // Per row: values per read position (a row mapped by onRow may hold fewer than the read's width).
          const rowWidth = rowValues.length / Math.max(1, sequence.readPositions[read]!.length);
          const position = sequence.readPositions[read]![Math.floor(bad / Math.max(1, rowWidth))]!;
          throw new NonFiniteOutputError({ model: info.description, backend: name, inputIndex: index, value: rowValues[bad]!, position });
        }
        values[index] = rowValues;
        counts[index] = sequence.readPositions[read]!.length;
      });
      return { values, width: result.width, counts };
    });
  }

  /** Reads the recipe's head at each pair's positions and activates the outputs into scores. */
  private async readHead(batch: TokenizedBatch, positionsOf: (pair: TokenizedPair) => number[], layer?: number): Promise<Float32Array[]> {
    if (this.remote && this.recipe.likelihoodHead !== undefined) {
      throw new InvalidInputError(
        `recipe "${this.recipe.name}" bounds step scores by its "${this.recipe.likelihoodHead}" head's likelihood of the solution, which a remote engine's pooling output does not give: serve the model with a recipe without a likelihood head`,
      );
    }
    if (this.remote)
      return this.remote.readScores(
        batch.pairs.map((pair, index) => (batch.errors[index] === null ? pair : null)),
        batch.pairs.map(positionsOf),
        layer,
      );
    const read = (positions: number[][]): ReadRequestV1 => ({
      kind: 'head',
      head: this.recipe.head,
      positions,
      ...(this.columns ? { columns: this.columns } : {}),
      ...(layer !== undefined ? { layer } : {}),
    });
    const likelihood = this.recipe.likelihoodHead;
    if (likelihood === undefined || layer !== undefined) {
      const { values, width, counts } = await this.forwardValid(batch, positionsOf, read);
      return values.map((rowValues, index) => activateScores(rowValues, counts[index]!, width, this.recipe));
    }
    // The recipe's head and, in the same pass, the language-model head before every solution token.
    // Each row's logits become one probability per token as its batch returns (the next pass running meanwhile).
    const [scores, probabilities] = await this.forwardValidReads(
      batch,
      [positionsOf, likelihoodPositions],
      (perRead) => [read(perRead[0]!), { kind: 'head', head: likelihood, positions: perRead[1]! }],
      (readIndex, pair, values, width) => (readIndex === 1 ? tokenProbabilities(pair, values, width) : values),
    );
    return scores!.values.map((rowValues, index) => {
      const activated = activateScores(rowValues, scores!.counts[index]!, scores!.width, this.recipe);
      if (batch.errors[index] !== null) return activated;
      const pair = batch.pairs[index]!;
      return boundByProbabilities(activated, positionsOf(pair), pair, probabilities!.values[index]!);
    });
  }

  private notesFor(batch: TokenizedBatch, extra: readonly string[] = []): string[] {
    const notes = [...this.baseNotes, ...extra];
    batch.pairs.forEach((pair, index) => {
      for (const note of pair.notes) notes.push(batch.pairs.length === 1 ? note : `pair ${index}: ${note}`);
    });
    return notes;
  }

  private evidence<Value>(value: Value, batch: TokenizedBatch, extra: readonly string[] = []): Evidence<Value> {
    return createEvidence(value, { gauge: recipeGauge(this.recipe), notes: this.notesFor(batch, extra) });
  }
}

function resolveColumns(recipe: ReadingRecipe, tokenizer: PrmTokenizer): number[] | undefined {
  return recipe.columns?.map((column) => {
    if (typeof column === 'number') return column;
    const id = tokenizer.tokenToId(column.token);
    if (id === undefined)
      throw new InvalidInputError(
        `recipe "${recipe.name}" reads token ${JSON.stringify(column.token)}, which tokenizer "${tokenizer.name}" does not have as one token`,
      );
    return id;
  });
}

function checkRecipeFitsBackend(recipe: ReadingRecipe, columns: number[] | undefined, backend: BackendV1): void {
  const head = backend.info.heads.find((candidate) => candidate.name === recipe.head);
  if (!head) {
    throw new InvalidInputError(
      `recipe "${recipe.name}" reads head "${recipe.head}", which backend "${backend.name}" does not have (heads: ${backend.info.heads.map((h) => h.name).join(', ')})`,
    );
  }
  const width = columns?.length ?? head.width;
  if (recipe.activation === 'softmax' && (width < 2 || recipe.positiveIndex >= width)) {
    throw new InvalidInputError(`recipe "${recipe.name}" takes a softmax over ${width} output(s) with positive index ${recipe.positiveIndex}`);
  }
  if (recipe.activation !== 'softmax' && width !== 1) {
    throw new InvalidInputError(
      `recipe "${recipe.name}" reads one output with ${recipe.activation}, but head "${head.name}" gives ${width}; choose columns or a softmax`,
    );
  }
}

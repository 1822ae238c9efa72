import {
  type BackendV1,
  formatCapabilities,
  hasCapability,
  type Capabilities,
  type CapabilityName,
  InvalidInputError,
  UnsupportedCapabilityError,
  createEvidence,
  type Evidence,
} from '@reward-lens/spec';
import { calibrateOutcomeEvidence, calibrateStepEvidence } from '../calibration/calibrate-evidence.js';
import type { DomainCheck } from '../domain/domain-check.js';
import { tokenDomainCheck } from '../domain/token-domain.js';
import { validateStepCalibration, type StepCalibration } from '../calibration/step-calibration.js';
import { sequenceClassifierRecipeFor } from './sequence-classifier.js';
import { plainValueRecipe, recipeGauge, type ReadingRecipe } from '../recipes/reading-recipe.js';
import type { DetectionFeatureOptions, SolutionTokenFeatures } from '../step-detection/solution-token-features.js';
import { readDetectionFeatures } from './detection-features.js';
import type { StepDetector } from '../step-detection/step-detector.js';
import type { PrmTokenizer } from '@reward-lens/tokenizers';
import { type ForwardContext, readHiddenStates, readLocalHead } from './forward-valid.js';
import type { OutcomeScores, PrefixScores, StepActivations, StepScores } from './process-rm-results.js';
import { resolveStepDetection, type StepDetectionSetting } from './learned-steps.js';
import { normalizeScoringInput, type ScoringInput } from './scoring-input.js';
import { folderOptions, loadPretrained, type LoadedPretrained, type PretrainedOptions } from './load-pretrained.js';
import { loadFromFiles, type PretrainedFiles } from './load-from-files.js';
import type { ScoringOptions, TokenizedBatch } from './tokenized-batch.js';
import { detectionContext, layOutBatch, layOutPair, type PairLayoutContext } from './pair-layout.js';
import { type ExtendOptions, ScoredPrefix, type PrefixContext } from './scored-prefix.js';
import { headStableTokenCount, stableTokenCount, stepJoinerOf } from './stable-token-count.js';
import { computeScoreHvp, type ScoreHvp, type ScoreHvpOptions } from './score-hvp.js';
import { computeStepGradients, type StepGradientOptions, type StepGradients } from './step-gradients.js';
import { loadTinyModel, type TinyModelOptions } from './load-tiny.js';
import type { TokenizedPair } from './tokenize-pair.js';
import { scoringSettings, type ProcessRMOptions, type ScoringSettings } from './process-rm-options.js';
import { batchNotes, stepCurve } from './step-curve.js';
import { checkRecipeFitsBackend, recipeColumns } from './recipe-fit.js';
import { isStepScoreSource, readSourceScores, scoringSourceInfo, type ScoringSourceInfo, type StepScoreSource } from './score-source.js';

export type { ScoringOptions } from './tokenized-batch.js';
export type { ProcessRMOptions } from './process-rm-options.js';

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
  /** What scores this model, local backend or score source: its name, description, capabilities, context length and precision. */
  readonly source: ScoringSourceInfo;
  readonly tokenizer: PrmTokenizer;
  readonly recipe: ReadingRecipe;
  /** The attached calibration, if any (`withCalibration`). */
  readonly calibration: StepCalibration | undefined;
  private readonly construction: ProcessRMOptions;
  private readonly domainChecks: readonly DomainCheck[];
  private readonly options: ScoringSettings;
  private readonly stepDetection: StepDetectionSetting;
  private readonly baseNotes: readonly string[];
  private readonly columns: number[] | undefined;
  /** The local backend whose forward passes score this model; undefined on a score source. */
  private readonly local: BackendV1 | undefined;
  /** The score source (`fromScoreSource`) that returns the scores instead; undefined on a local backend. */
  private readonly scores: StepScoreSource | undefined;
  private prefixContext: PrefixContext | undefined;

  private constructor(engine: BackendV1 | StepScoreSource, tokenizer: PrmTokenizer, options: ProcessRMOptions) {
    this.source = scoringSourceInfo(engine);
    this.local = isStepScoreSource(engine) ? undefined : engine;
    this.scores = isStepScoreSource(engine) ? engine : undefined;
    this.tokenizer = tokenizer;
    this.recipe = options.recipe ?? plainValueRecipe;
    this.construction = options;
    this.calibration = options.calibration == null ? undefined : validateStepCalibration(options.calibration);
    const spec = this.calibration?.domainCheck;
    this.domainChecks = [...(spec ? [tokenDomainCheck(spec)] : []), ...(options.domainChecks ?? [])];
    this.options = scoringSettings(options);
    this.baseNotes = options.notes ?? [`backend "${this.source.name}" (${this.source.description})`];
    this.columns = recipeColumns(this.recipe, tokenizer);
    // A score source applies the head itself; a local backend must have the head the recipe reads.
    if (this.local) checkRecipeFitsBackend(this.recipe, this.columns, this.local);
    this.stepDetection = resolveStepDetection(options.stepDetection, options.stepDetector, this.local ?? this.source, this.recipe);
  }

  /** The local backend that runs this model's forward passes; a model on a score source (`fromScoreSource`) has none, and this throws naming it. */
  get backend(): BackendV1 {
    if (this.local) return this.local;
    const operation = 'backend (a score source has none: see prm.source)';
    throw new UnsupportedCapabilityError({ capability: 'local forward pass', backend: this.source.name, operation });
  }

  /** Wraps a backend and a tokenizer. The recipe says how the backend's head is read. */
  static fromBackend(backend: BackendV1, tokenizer: PrmTokenizer, options: ProcessRMOptions = {}): ProcessRM {
    return new ProcessRM(backend, tokenizer, options);
  }

  /** The seeded tiny PRM on backend-tiny (import `@reward-lens/backend-tiny/register` first) or `options.backend`: random weights (the same on every platform), the byte-BPE tokenizer, a raw value head. Scores are meaningless; segmentation and reads are exact. */
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

  /** A loaded folder as a PRM (see `folderOptions`). */
  private static fromLoaded(loaded: LoadedPretrained, options: Omit<ProcessRMOptions, 'recipe'>): ProcessRM {
    return new ProcessRM(loaded.backend, loaded.tokenizer, folderOptions(loaded, options));
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
    return new ProcessRM(model, tokenizerOrOptions as PrmTokenizer, { ...options, recipe: sequenceClassifierRecipeFor(model) });
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
    return new ProcessRM(this.local ?? this.scores!, this.tokenizer, { ...this.construction, notes: this.baseNotes, calibration });
  }

  /**
   * A PRM whose scores come from a score source rather than a local forward pass: an engine that
   * returns activated step scores (vLLM's STEP pooling: `fromVllm` of `@reward-lens/remote`
   * builds one). Pairs are laid out and tokenized here exactly as for a local model, and the
   * results are the same types; what the source cannot do (prefix caching, activations,
   * gradients) is refused by capability.
   */
  static fromScoreSource(source: StepScoreSource, tokenizer: PrmTokenizer, options: ProcessRMOptions = {}): ProcessRM {
    if (!isStepScoreSource(source)) throw new InvalidInputError('fromScoreSource takes a StepScoreSource (a readScores method); a backend goes to fromBackend');
    return new ProcessRM(source, tokenizer, options);
  }

  /** What this model can do: its backend's (or score source's) capabilities. */
  get caps(): Capabilities {
    return this.source.capabilities;
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
    return formatCapabilities(this.source.capabilities);
  }

  /**
   * One pair laid out and mapped to tokens: ids, step spans, read positions, meta. Synchronous, so
   * it splits at the delimiter only; `segment` gives the pair as the scoring methods see it.
   */
  tokenize(input: ScoringInput): TokenizedPair {
    return layOutPair(this.layout(), normalizeScoringInput(input, 'input'));
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
    const curves = await this.readHead(batch, (pair) => [pair.readPositions[pair.readPositions.length - 1]!], undefined, options.signal);
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
    if (options.layer !== undefined && options.layer !== this.local?.info.numLayers) this.require('LINEAR_READOUT', 'stepScores at an inner layer');
    const batch = await this.tokenizeAll(inputs, options);
    const curves = await this.readHead(batch, (pair) => pair.readPositions.filter((position) => position >= 0), options.layer, options.signal);
    const fullCurves = batch.pairs.map((pair, index) => stepCurve(pair, curves[index]!));
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
    const curves = await this.readHead(batch, (pair) => Array.from(pair.inputIds, (_, position) => position), undefined, options.signal);
    return this.evidence(
      { curves, stepReadPositions: batch.pairs.map((pair) => pair.readPositions), meta: batch.pairs.map((pair) => pair.meta), errors: batch.errors },
      batch,
    );
  }

  /** Per pair, the residual stream after `layer` layers at every step's read position (ACTIVATIONS). */
  async stepActivations(inputs: readonly ScoringInput[], options: ScoringOptions & { layer: number }): Promise<Evidence<StepActivations>> {
    this.require('ACTIVATIONS', 'stepActivations');
    const batch = await this.tokenizeAll(inputs, options);
    const { values, hiddenSize } = await readHiddenStates(this.forwardContext(options.signal), batch, options.layer);
    return createEvidence(
      { layer: options.layer, hiddenSize, values, meta: batch.pairs.map((pair) => pair.meta), errors: batch.errors },
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
    return readDetectionFeatures(detectionContext({ ...this.layout(), backend: this.backend }), inputs, options);
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
    return this.evidence(await computeStepGradients(this.forwardContext(options.signal), batch, options), batch);
  }

  /**
   * The exact Hessian-vector product of one step's score (default: the outcome score) over the
   * parameters and the input embeddings, along `direction` (HVP), with the gradient.
   */
  async hvp(input: ScoringInput, options: ScoreHvpOptions): Promise<Evidence<ScoreHvp>> {
    this.require('HVP', 'hvp');
    const batch = await this.tokenizeAll([input], {});
    return this.evidence(await computeScoreHvp(this.forwardContext(), batch.pairs[0]!, options), batch);
  }

  /** A scored prefix for step-level search: the problem's tokens run and cached once; each step runs only its new tokens; scores equal a full pass's. */
  async prefix(problem: string, options: ExtendOptions = {}): Promise<ScoredPrefix> {
    this.require('STEP_SCORES', 'prefix');
    if (!this.local?.supportsCache) {
      throw new UnsupportedCapabilityError({ capability: 'KV cache', backend: this.source.name, operation: 'prefix scoring with a cache' });
    }
    if (typeof problem !== 'string') throw new InvalidInputError('problem must be a string');
    // One context per ProcessRM: prefixes of any of its problems can be extended together.
    this.prefixContext ??= {
      ...this.forwardContext(),
      tokenizer: this.tokenizer,
      tokenize: (text: string, steps: readonly string[]) => this.tokenize({ problem: text, steps }),
      stableTokens: (pair: TokenizedPair) => stableTokenCount(this.tokenizer, this.recipe, pair, stepJoinerOf(this.recipe, this.options.delimiter)),
      headStableTokens: (pair: TokenizedPair) => headStableTokenCount(this.tokenizer, this.recipe, pair),
    };
    return ScoredPrefix.root(this.prefixContext, problem, options.signal);
  }

  /** Frees the backend (or the score source). */
  async dispose(): Promise<void> {
    await (this.local ?? this.scores!).dispose();
  }

  /** `await using prm = await ProcessRM.fromPretrained(...)` disposes it at the end of the block. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }

  private require(capability: CapabilityName, operation: string): void {
    if (!hasCapability(this.source.capabilities, capability)) {
      throw new UnsupportedCapabilityError({ capability, backend: this.source.name, operation });
    }
  }

  private layout(): PairLayoutContext {
    return {
      tokenizer: this.tokenizer,
      recipe: this.recipe,
      tokenizeOptions: {
        delimiter: this.options.delimiter,
        ...(this.options.detector ? { detector: this.options.detector } : {}),
        singleStepAdvice: this.stepDetection.advice,
        maxPositions: this.source.maxPositions,
        truncation: this.options.truncation,
      },
      stepDetection: this.stepDetection,
      domainChecks: this.domainChecks,
      backend: this.local,
      batch: this.batchOptions(),
    };
  }

  private async tokenizeAll(inputs: readonly ScoringInput[], options: ScoringOptions): Promise<TokenizedBatch> {
    options.signal?.throwIfAborted();
    const batch = await layOutBatch(this.layout(), inputs, options);
    options.signal?.throwIfAborted();
    return batch;
  }

  private batchOptions() {
    return { batchSize: this.options.batchSize, padding: this.options.padding, padTokenId: this.tokenizer.padTokenId };
  }

  /** Reads the recipe's head at each pair's positions and activates the outputs into scores (a score source returns them activated). */
  private readHead(batch: TokenizedBatch, positionsOf: (pair: TokenizedPair) => number[], layer?: number, signal?: AbortSignal): Promise<Float32Array[]> {
    if (this.scores) return readSourceScores(this.scores, this.recipe, batch, positionsOf, layer, signal);
    return readLocalHead(this.forwardContext(signal), batch, positionsOf, layer);
  }

  private forwardContext(signal?: AbortSignal): ForwardContext {
    return { backend: this.backend, recipe: this.recipe, columns: this.columns, ...this.batchOptions(), ...(signal ? { signal } : {}) };
  }

  private notesFor(batch: TokenizedBatch, extra: readonly string[] = []): string[] {
    return batchNotes(this.baseNotes, batch, extra);
  }

  private evidence<Value>(value: Value, batch: TokenizedBatch, extra: readonly string[] = []): Evidence<Value> {
    return createEvidence(value, { gauge: recipeGauge(this.recipe), notes: this.notesFor(batch, extra) });
  }
}

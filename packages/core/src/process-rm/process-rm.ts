import type { BackendV1, ReadRequestV1 } from '../backend/v1/backend-v1.js';
import { formatCapabilities, hasCapability, type Capabilities, type CapabilityName } from '../capabilities.js';
import { InvalidInputError } from '../errors/invalid-input-error.js';
import { UnsupportedCapabilityError } from '../errors/unsupported-capability-error.js';
import { createEvidence, type Evidence } from '../evidence.js';
import { sequenceClassifierRecipe } from '../recipes/presets.js';
import { plainValueRecipe, recipeGauge, type ReadingRecipe } from '../recipes/reading-recipe.js';
import type { StepBoundaryDetector, StepDelimiter } from '../segmenter/types.js';
import type { PrmTokenizer } from '../tokenizers/tokenizer.js';
import { activateScores } from './activate-scores.js';
import { forwardInBatches, type SequenceReads } from './forward-batches.js';
import type { OutcomeScores, PrefixScores, StepActivations, StepScores } from './process-rm-results.js';
import { normalizeScoringInput, type ScoringInput } from './scoring-input.js';
import { loadPretrained, type PretrainedOptions } from './load-pretrained.js';
import { ScoredPrefix } from './scored-prefix.js';
import { loadTinyModel, type TinyModelOptions } from './load-tiny.js';
import { tokenizePair, type TokenizedPair, type TokenizeOptions } from './tokenize-pair.js';

export interface ProcessRMOptions {
  /** How the model is read; defaults to a raw value head at each step's last token. */
  recipe?: ReadingRecipe;
  /** What separates steps in a solution given as one text. Default: the recipe's (`"\n"` for the plain recipe). */
  delimiter?: StepDelimiter;
  /** Used when the delimiter does not split a solution into at least two steps. */
  detector?: StepBoundaryDetector;
  /** `'none'` (default) rejects sequences longer than the model's positions; `'left'` keeps their end. */
  truncation?: 'none' | 'left';
  /** Pairs per forward pass. Default 8. */
  batchSize?: number;
  /** Which side of a batch row holds padding. Default `'right'`. */
  padding?: 'left' | 'right';
  /** Notes carried into every result (which backend ran, why others were skipped). */
  notes?: readonly string[];
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
  private readonly options: Required<Omit<ProcessRMOptions, 'detector' | 'recipe' | 'notes'>> & { detector?: StepBoundaryDetector };
  private readonly baseNotes: readonly string[];
  private readonly columns: number[] | undefined;

  private constructor(backend: BackendV1, tokenizer: PrmTokenizer, options: ProcessRMOptions) {
    this.backend = backend;
    this.tokenizer = tokenizer;
    this.recipe = options.recipe ?? plainValueRecipe;
    this.options = {
      delimiter: options.delimiter ?? (options.recipe ?? plainValueRecipe).delimiter,
      truncation: options.truncation ?? 'none',
      batchSize: options.batchSize ?? 8,
      padding: options.padding ?? 'right',
      ...(options.detector ? { detector: options.detector } : {}),
    };
    if (!Number.isInteger(this.options.batchSize) || this.options.batchSize < 1) throw new InvalidInputError(`batchSize must be a positive integer, got ${this.options.batchSize}`);
    this.baseNotes = options.notes ?? [`backend "${backend.name}" (${backend.info.description})`];
    this.columns = resolveColumns(this.recipe, tokenizer);
    checkRecipeFitsBackend(this.recipe, this.columns, backend);
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
    const { backend, tokenizer, recipe, notes } = await loadPretrained(folder, options);
    return new ProcessRM(backend, tokenizer, { ...options, recipe, notes: [...notes, ...(options.notes ?? [])] });
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
      throw new InvalidInputError(`backend "${model.name}" has no one-output reward head (heads: ${model.info.heads.map((head) => `${head.name} (${head.width})`).join(', ')})`);
    }
    return new ProcessRM(model, tokenizerOrOptions as PrmTokenizer, { ...options, recipe: { ...sequenceClassifierRecipe, head: rewardHead.name } });
  }

  /** What this model can do: the backend's capabilities. */
  get caps(): Capabilities {
    return this.backend.capabilities;
  }

  /** Which backend runs this model, and why others were skipped when it was resolved. */
  get notes(): readonly string[] {
    return this.baseNotes;
  }

  /** The readable form, e.g. `SCORES|PREFIX_SCORES|ACTIVATIONS|LINEAR_READOUT|STEP_SCORES`. */
  get capsString(): string {
    return formatCapabilities(this.backend.capabilities);
  }

  /** One pair laid out and mapped to tokens: ids, step spans, read positions, meta. */
  tokenize(input: ScoringInput): TokenizedPair {
    return tokenizePair(this.tokenizer, this.recipe, normalizeScoringInput(input, 'input'), this.tokenizeOptions());
  }

  /** One outcome scalar per pair (the reward at the last step's read position). */
  async score(inputs: readonly ScoringInput[]): Promise<Evidence<OutcomeScores>> {
    this.require('SCORES', 'score');
    const pairs = this.tokenizeAll(inputs);
    const curves = await this.readHead(pairs.map((pair) => ({ inputIds: pair.inputIds, positions: [pair.readPositions[pair.readPositions.length - 1]!] })));
    return this.evidence({ values: Float32Array.from(curves, (curve) => curve[0]!) }, pairs);
  }

  /**
   * Per pair, the score at every step boundary, all from one forward pass.
   * `layer` reads the reward head at an inner layer (LINEAR_READOUT).
   */
  async stepScores(inputs: readonly ScoringInput[], options: { layer?: number } = {}): Promise<Evidence<StepScores>> {
    this.require('STEP_SCORES', 'stepScores');
    if (options.layer !== undefined && options.layer !== this.backend.info.numLayers) this.require('LINEAR_READOUT', 'stepScores at an inner layer');
    const pairs = this.tokenizeAll(inputs);
    const curves = await this.readHead(
      pairs.map((pair) => ({ inputIds: pair.inputIds, positions: pair.readPositions.filter((position) => position >= 0) })),
      options.layer,
    );
    const fullCurves = pairs.map((pair, index) => {
      // Steps cut off by left truncation have no score: NaN, and the pair's notes say so.
      const curve = new Float32Array(pair.steps.length).fill(Number.NaN);
      let next = 0;
      pair.readPositions.forEach((position, step) => {
        if (position >= 0) curve[step] = curves[index]![next++]!;
      });
      return curve;
    });
    return this.evidence(
      { stepCounts: pairs.map((pair) => pair.steps.length), curves: fullCurves, steps: pairs.map((pair) => pair.steps), meta: pairs.map((pair) => pair.meta) },
      pairs,
      options.layer !== undefined ? [`read at layer ${options.layer} of ${this.backend.info.numLayers}`] : [],
    );
  }

  /** Per pair, the reward read at every token position: how the reward evolves through the text. */
  async prefixScores(inputs: readonly ScoringInput[]): Promise<Evidence<PrefixScores>> {
    this.require('PREFIX_SCORES', 'prefixScores');
    const pairs = this.tokenizeAll(inputs);
    const curves = await this.readHead(pairs.map((pair) => ({ inputIds: pair.inputIds, positions: Array.from(pair.inputIds, (_, position) => position) })));
    return this.evidence({ curves, stepReadPositions: pairs.map((pair) => pair.readPositions), meta: pairs.map((pair) => pair.meta) }, pairs);
  }

  /** Per pair, the residual stream after `layer` layers at every step's read position (ACTIVATIONS). */
  async stepActivations(inputs: readonly ScoringInput[], options: { layer: number }): Promise<Evidence<StepActivations>> {
    this.require('ACTIVATIONS', 'stepActivations');
    const pairs = this.tokenizeAll(inputs);
    const { values, width } = await forwardInBatches(
      this.backend,
      pairs.map((pair) => ({ inputIds: pair.inputIds, positions: pair.readPositions.filter((position) => position >= 0) })),
      { ...this.batchOptions(), read: (positions) => ({ kind: 'hidden', layer: options.layer, positions }) },
    );
    return createEvidence(
      { layer: options.layer, hiddenSize: width, values, meta: pairs.map((pair) => pair.meta) },
      { gauge: 'INVARIANT', notes: this.notesFor(pairs) },
    );
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
    const context = {
      backend: this.backend,
      tokenizer: this.tokenizer,
      recipe: this.recipe,
      columns: this.columns,
      tokenize: (text: string, steps: readonly string[]) => this.tokenize({ problem: text, steps }),
    };
    return new ScoredPrefix(context, problem, [], [], new Float32Array(0), []);
  }

  /** Frees the backend. */
  async dispose(): Promise<void> {
    await this.backend.dispose();
  }

  private require(capability: CapabilityName, operation: string): void {
    if (!hasCapability(this.backend.capabilities, capability)) {
      throw new UnsupportedCapabilityError({ capability, backend: this.backend.name, operation });
    }
  }

  private tokenizeAll(inputs: readonly ScoringInput[]): TokenizedPair[] {
    if (!Array.isArray(inputs)) throw new InvalidInputError('expected a list of pairs');
    if (inputs.length === 2 && inputs.every((item) => typeof item === 'string')) {
      throw new InvalidInputError('expected a list of pairs; wrap a single [problem, solution] pair in a list: [[problem, solution]]');
    }
    return inputs.map((input, index) =>
      tokenizePair(this.tokenizer, this.recipe, normalizeScoringInput(input, `pair ${index}`), this.tokenizeOptions()),
    );
  }

  private tokenizeOptions(): TokenizeOptions {
    return {
      delimiter: this.options.delimiter,
      ...(this.options.detector ? { detector: this.options.detector } : {}),
      maxPositions: this.backend.info.maxPositions,
      truncation: this.options.truncation,
    };
  }

  private batchOptions() {
    return { batchSize: this.options.batchSize, padding: this.options.padding, padTokenId: this.tokenizer.padTokenId };
  }

  /** Reads the recipe's head at each sequence's positions and activates the outputs into scores. */
  private async readHead(sequences: SequenceReads[], layer?: number): Promise<Float32Array[]> {
    const read = (positions: number[][]): ReadRequestV1 => ({
      kind: 'head',
      head: this.recipe.head,
      positions,
      ...(this.columns ? { columns: this.columns } : {}),
      ...(layer !== undefined ? { layer } : {}),
    });
    const { values, width } = await forwardInBatches(this.backend, sequences, { ...this.batchOptions(), read });
    return values.map((rowValues, index) => activateScores(rowValues, sequences[index]!.positions.length, width, this.recipe));
  }

  private notesFor(pairs: readonly TokenizedPair[], extra: readonly string[] = []): string[] {
    const notes = [...this.baseNotes, ...extra];
    pairs.forEach((pair, index) => {
      for (const note of pair.notes) notes.push(pairs.length === 1 ? note : `pair ${index}: ${note}`);
    });
    return notes;
  }

  private evidence<Value>(value: Value, pairs: readonly TokenizedPair[], extra: readonly string[] = []): Evidence<Value> {
    return createEvidence(value, { gauge: recipeGauge(this.recipe), notes: this.notesFor(pairs, extra) });
  }
}

function resolveColumns(recipe: ReadingRecipe, tokenizer: PrmTokenizer): number[] | undefined {
  return recipe.columns?.map((column) => {
    if (typeof column === 'number') return column;
    const id = tokenizer.tokenToId(column.token);
    if (id === undefined) throw new InvalidInputError(`recipe "${recipe.name}" reads token ${JSON.stringify(column.token)}, which tokenizer "${tokenizer.name}" does not have as one token`);
    return id;
  });
}

function checkRecipeFitsBackend(recipe: ReadingRecipe, columns: number[] | undefined, backend: BackendV1): void {
  const head = backend.info.heads.find((candidate) => candidate.name === recipe.head);
  if (!head) {
    throw new InvalidInputError(`recipe "${recipe.name}" reads head "${recipe.head}", which backend "${backend.name}" does not have (heads: ${backend.info.heads.map((h) => h.name).join(', ')})`);
  }
  const width = columns?.length ?? head.width;
  if (recipe.activation === 'softmax' && (width < 2 || recipe.positiveIndex >= width)) {
    throw new InvalidInputError(`recipe "${recipe.name}" takes a softmax over ${width} output(s) with positive index ${recipe.positiveIndex}`);
  }
  if (recipe.activation !== 'softmax' && width !== 1) {
    throw new InvalidInputError(`recipe "${recipe.name}" reads one output with ${recipe.activation}, but head "${head.name}" gives ${width}; choose columns or a softmax`);
  }
}

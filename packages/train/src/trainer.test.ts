import fc from 'fast-check';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessRM, RewardLensError } from '@reward-lens/core';
import '@reward-lens/backend-tiny/register';
import { afterAll, describe, expect, it } from 'vitest';
import { listCheckpoints } from './checkpoint/checkpoint-folder.js';
import type { TrainingEvent } from './progress/training-event.js';
import { parityConfig, parityRecords, parityTokenizer } from '../test/support/parity-task.js';
import { trainProcessRewardModel, type TrainOptions } from './trainer.js';

const folders: string[] = [];
const temporaryFolder = async () => {
  const folder = await mkdtemp(join(tmpdir(), 'reward-lens-train-'));
  folders.push(folder);
  return folder;
};
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

const training = parityRecords(400, 1);
const heldOut = parityRecords(60, 2);

const baseOptions = (out: string): TrainOptions => ({
  data: training,
  heldOut,
  out,
  init: { kind: 'scratch', config: parityConfig, ...parityTokenizer },
  steps: 60,
  batchTokens: 600,
  learningRate: 3e-3,
  warmupSteps: 5,
  seed: 3,
  evaluateEvery: 30,
  checkpointEvery: 20,
});

const bitsOf = (tensors: ReadonlyMap<string, Float32Array>) =>
  new Map([...tensors].map(([name, tensor]) => [name, [...new Uint32Array(tensor.buffer, tensor.byteOffset, tensor.length)]]));

describe('trainProcessRewardModel', () => {
  it('lowers the held-out loss on a synthetic step-labelled task and writes a loadable Hugging Face folder', async () => {
    const out = await temporaryFolder();
    const events: TrainingEvent[] = [];
    const result = await trainProcessRewardModel({ ...baseOptions(out), onEvent: (event) => events.push(event) });
    expect(result.stopped).toBe('completed');
    expect(result.step).toBe(60);
    const evaluations = result.state.evaluations;
    expect(evaluations.map((record) => record.step)).toEqual([0, 30, 60]);
    // Before training the head guesses (about log 2); after 60 steps the loss is well below it.
    expect(evaluations[0]!.loss).toBeGreaterThan(0.6);
    expect(evaluations.at(-1)!.loss).toBeLessThan(0.3);
    expect(evaluations.at(-1)!.f1).toBeGreaterThan(0.9);
    expect(events.filter((event) => event.kind === 'step')).toHaveLength(60);
    expect(events.at(-1)).toMatchObject({ kind: 'done', stopped: 'completed', folder: out });

    const files = await readdir(out);
    for (const file of ['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json', 'README.md']) expect(files).toContain(file);
    const config = JSON.parse(await readFile(join(out, 'config.json'), 'utf8'));
    expect(config).toMatchObject({ architectures: ['LlamaForTokenClassification'], num_labels: 2, reward_lens: { recipe: 'trl-token-classification' } });
    const card = await readFile(join(out, 'README.md'), 'utf8');
    expect(card).toContain('seed: 3');
    expect(card).toContain('400 in-memory records');
    expect(card).toMatch(/At step 60: loss \d\.\d{4}, ProcessBench F1/);

    // The folder loads as a PRM (recipe inferred from config.json) and scores as training evaluated it.
    const prm = await ProcessRM.fromPretrained(out);
    expect(prm.recipe.name).toBe('trl-token-classification');
    const record = heldOut[0]!;
    const scores = (await prm.stepScores([{ problem: record.problem, steps: record.steps }])).value.curves[0]!;
    expect(scores).toHaveLength(record.steps.length);
    await prm.dispose();
  });

  it('resumes after an abort to the same final weights as an uninterrupted run, computing no step twice', async () => {
    const straight = await trainProcessRewardModel({ ...baseOptions(await temporaryFolder()), heldOut: undefined, steps: 30, checkpointEvery: 10 });
    const out = await temporaryFolder();
    const controller = new AbortController();
    const stepsRun: number[] = [];
    const first = await trainProcessRewardModel({
      ...baseOptions(out),
      heldOut: undefined,
      steps: 30,
      checkpointEvery: 10,
      signal: controller.signal,
      onEvent: (event) => {
        if (event.kind !== 'step') return;
        stepsRun.push(event.step);
        if (event.step === 13) controller.abort();
      },
    });
    expect(first).toMatchObject({ stopped: 'aborted', step: 13 });
    expect((await listCheckpoints(out)).map((checkpoint) => checkpoint.step)).toEqual([10, 13]);
    const resumed = await trainProcessRewardModel({
      ...baseOptions(out),
      heldOut: undefined,
      steps: 30,
      checkpointEvery: 10,
      resume: true,
      onEvent: (event) => {
        if (event.kind === 'step') stepsRun.push(event.step);
      },
    });
    expect(resumed.stopped).toBe('completed');
    expect(stepsRun).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
    expect(bitsOf(resumed.model.tensors)).toEqual(bitsOf(straight.model.tensors));
    expect(resumed.state.cursor).toBe(straight.state.cursor);
  });

  it('resumes after a crash from the last checkpoint to the same final weights', async () => {
    const straight = await trainProcessRewardModel({ ...baseOptions(await temporaryFolder()), heldOut: undefined, steps: 24, checkpointEvery: 8 });
    const out = await temporaryFolder();
    await expect(
      trainProcessRewardModel({
        ...baseOptions(out),
        heldOut: undefined,
        steps: 24,
        checkpointEvery: 8,
        onEvent: (event) => {
          if (event.kind === 'step' && event.step === 11) throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    expect((await listCheckpoints(out)).map((checkpoint) => checkpoint.step)).toEqual([8]);
    const resumed = await trainProcessRewardModel({ ...baseOptions(out), heldOut: undefined, steps: 24, checkpointEvery: 8, resume: true });
    expect(bitsOf(resumed.model.tensors)).toEqual(bitsOf(straight.model.tensors));
  });

  it('writes the same model.safetensors, byte for byte, after 12 steps on 1 and on 2 threads', async () => {
    const files: Buffer[] = [];
    for (const threads of [1, 2]) {
      const out = await temporaryFolder();
      // Small shards (batches of about 600 tokens in 5 to 6 shards), so both workers compute gradients every step.
      const result = await trainProcessRewardModel({ ...baseOptions(out), heldOut: undefined, steps: 12, threads, shardTokens: 100 });
      expect(result.stopped).toBe('completed');
      files.push(await readFile(join(out, 'model.safetensors')));
    }
    expect(files[1]!.equals(files[0]!)).toBe(true);
  });

  it('refuses to resume with different settings, naming them', async () => {
    const out = await temporaryFolder();
    await trainProcessRewardModel({ ...baseOptions(out), heldOut: undefined, steps: 4, checkpointEvery: 2 });
    await expect(trainProcessRewardModel({ ...baseOptions(out), heldOut: undefined, steps: 4, learningRate: 1e-3, resume: true })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('learningRate was 0.003, now 0.001'),
    });
    // The shard size changes the gradients' sums; the thread count does not, so it may change.
    await expect(trainProcessRewardModel({ ...baseOptions(out), heldOut: undefined, steps: 4, shardTokens: 64, resume: true })).rejects.toMatchObject({
      message: expect.stringContaining('shardTokens was 256, now 64'),
    });
    await expect(trainProcessRewardModel({ ...baseOptions(out), heldOut: undefined, steps: 4, threads: 1, resume: true })).resolves.toMatchObject({ step: 4 });
  });

  it('refuses to resume on other data, another tokenizer or another recipe, naming what changed', async () => {
    const out = await temporaryFolder();
    await trainProcessRewardModel({ ...baseOptions(out), heldOut: undefined, steps: 4, checkpointEvery: 2 });
    await expect(
      trainProcessRewardModel({ ...baseOptions(out), data: parityRecords(400, 9), heldOut: undefined, steps: 4, resume: true }),
    ).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/with different inputs: the training data \(its first 1000 records in training order differ from the run's\)/),
    });
    const tokenizerJson = { ...(parityTokenizer.tokenizerJson as Record<string, unknown>), version: 'edited' };
    const otherTokenizer = { kind: 'scratch' as const, config: parityConfig, ...parityTokenizer, tokenizerJson };
    await expect(trainProcessRewardModel({ ...baseOptions(out), init: otherTokenizer, heldOut: undefined, steps: 4, resume: true })).rejects.toMatchObject({
      message: expect.stringContaining('the tokenizer (its JSON differ'),
    });
    await expect(trainProcessRewardModel({ ...baseOptions(out), heldOut: undefined, steps: 4, resume: true })).resolves.toMatchObject({ step: 4 });
  });

  it('refuses a tampered trainer_state.json naming the field, and a flipped bit in the weights, before training', async () => {
    const out = await temporaryFolder();
    await trainProcessRewardModel({ ...baseOptions(out), heldOut: undefined, steps: 4, checkpointEvery: 2 });
    const [first] = await listCheckpoints(out);
    const stateFile = join(first!.folder, 'trainer_state.json');
    const original = await readFile(stateFile, 'utf8');
    // Resume reads the latest checkpoint: keep only the first.
    for (const checkpoint of (await listCheckpoints(out)).slice(1)) await rm(checkpoint.folder, { recursive: true });
    const resume = () => trainProcessRewardModel({ ...baseOptions(out), heldOut: undefined, steps: 4, resume: true });
    const cases: [(state: Record<string, unknown>) => unknown, RegExp][] = [
      [() => ({}), /formatVersion is undefined; this version reads 1/],
      [(state) => ({ ...state, cursor: -1 }), /cursor must be a non-negative integer, got -1/],
      [(state) => ({ ...state, cursor: 'x' }), /cursor must be a non-negative integer, got "x"/],
      [(state) => ({ ...state, random: null }), /random must be an object/],
      [(state) => ({ ...state, losses: null }), /losses must be an array, got null/],
      [(state) => ({ ...state, step: 999999 }), /step is 999999, past the run's 4 steps/],
      [(state) => ({ ...state, step: -5 }), /step must be a non-negative integer, got -5/],
      [(state) => ({ ...state, step: 1 }), /step is 1, but the checkpoint folder is step 2/],
    ];
    for (const [edit, message] of cases) {
      await writeFile(stateFile, JSON.stringify(edit(JSON.parse(original) as Record<string, unknown>)));
      const error = await resume().catch((caught: unknown) => caught);
      expect((error as { code?: string }).code, String(message)).toBe('MODEL_LOAD');
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toContain('trainer_state.json');
    }
    await writeFile(stateFile, original);
    const weights = join(first!.folder, 'model.safetensors');
    const bytes = await readFile(weights);
    bytes[bytes.length - 3]! ^= 0x10;
    await writeFile(weights, bytes);
    const flipped = await resume().catch((caught: unknown) => caught);
    expect((flipped as Error).message).toMatch(/model\.safetensors: does not match the checksum its checkpoint recorded/);
  });

  it('fuzz: any edit of trainer_state.json resumes, or is refused with a typed error; never an internal error', async () => {
    const out = await temporaryFolder();
    await trainProcessRewardModel({ ...baseOptions(out), heldOut: undefined, steps: 2, checkpointEvery: 2 });
    const [only] = await listCheckpoints(out);
    const stateFile = join(only!.folder, 'trainer_state.json');
    const original = JSON.parse(await readFile(stateFile, 'utf8')) as Record<string, unknown>;
    const fields = [...Object.keys(original), 'extra'];
    const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.integer(), fc.constantFrom(-1, 0, 2, 3, 1e300, null, 'x'));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...fields), value), { minLength: 1, maxLength: 3 }), async (edits) => {
        const edited: Record<string, unknown> = { ...original };
        for (const [field, replacement] of edits) edited[field] = replacement;
        await writeFile(stateFile, JSON.stringify(edited));
        const outcome = await trainProcessRewardModel({ ...baseOptions(out), heldOut: undefined, steps: 2, checkpointEvery: 2, resume: true }).catch(
          (caught: unknown) => caught,
        );
        if (outcome instanceof Error) expect(RewardLensError.isInstance(outcome), `${JSON.stringify(edits)}: ${outcome.stack}`).toBe(true);
      }),
      { numRuns: 25, seed: 20261202 },
    );
    await writeFile(stateFile, JSON.stringify(original));
  }, 120_000);

  it('fine-tunes a trained folder', async () => {
    const first = await temporaryFolder();
    await trainProcessRewardModel({ ...baseOptions(first), heldOut: undefined, steps: 3 });
    const out = await temporaryFolder();
    const result = await trainProcessRewardModel({ ...baseOptions(out), init: { kind: 'folder', folder: first }, heldOut: undefined, steps: 3 });
    expect(result.state.notes).toContain(`fine-tuned from ${first}`);
    expect(result.step).toBe(3);
  });

  it('adds an auxiliary next-token loss on the correct steps, reported beside the step loss, and the folder still reads as a PRM', async () => {
    const out = await temporaryFolder();
    const events: TrainingEvent[] = [];
    const tied = { ...parityConfig, tieWordEmbeddings: true };
    const result = await trainProcessRewardModel({
      ...baseOptions(out),
      init: { kind: 'scratch', config: tied, ...parityTokenizer },
      heldOut: undefined,
      steps: 40,
      languageModelWeight: 0.5,
      onEvent: (event) => events.push(event),
    });
    const steps = events.filter((event) => event.kind === 'step');
    const languageModelLosses = steps.map((event) => event.languageModelLoss!);
    expect(languageModelLosses.every((loss) => Number.isFinite(loss) && loss > 0)).toBe(true);
    // From about log(vocabulary) to well below: "even " and the newline are predictable, the digits are not.
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(mean(languageModelLosses.slice(0, 3))).toBeGreaterThan(Math.log(tied.vocabSize) - 0.5);
    expect(mean(languageModelLosses.slice(-5))).toBeLessThan(mean(languageModelLosses.slice(0, 3)) - 1);
    expect(result.state.losses.at(-1)!.languageModelLoss).toBe(languageModelLosses.at(-1));
    expect(result.state.hyperparameters.languageModelWeight).toBe(0.5);
    // The language-model head is tied to the embeddings: the folder holds no extra weights and loads as a PRM.
    const prm = await ProcessRM.fromPretrained(out);
    expect(prm.recipe.name).toBe('trl-token-classification');
    expect((await prm.stepScores([{ problem: 'Check each claim.', steps: ['even 2', 'even 3'] }])).value.curves[0]).toHaveLength(2);
    await prm.dispose();
    await expect(
      trainProcessRewardModel({
        ...baseOptions(out),
        init: { kind: 'scratch', config: tied, ...parityTokenizer },
        heldOut: undefined,
        steps: 40,
        resume: true,
      }),
    ).rejects.toMatchObject({ message: expect.stringContaining('languageModelWeight was 0.5, now 0') });
  });
});

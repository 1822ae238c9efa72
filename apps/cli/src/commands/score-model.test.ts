import { copyFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectScoresClose } from '../../test/support/expect-scores-close.js';
import { writeRandomClassifierFolder } from '../../test/support/model-folders.js';
import { jsonLines, runMain } from '../../test/support/run-main.js';
import { flags } from '../../test/support/flags.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-cli-score-model-'));
/** `LlamaForSequenceClassification`: the recipe is inferred. 96 positions, so truncation is easy to reach. */
const classifier = join(root, 'classifier');
/** The same kind of model under `LlamaForCausalLM`, which implies no recipe. */
const causal = join(root, 'causal');
afterAll(() => rm(root, { recursive: true, force: true }));
beforeAll(async () => {
  await writeRandomClassifierFolder(classifier, { architectures: ['LlamaForSequenceClassification'], maxPositions: 96 });
  await writeRandomClassifierFolder(causal, { architectures: ['LlamaForCausalLM'], maxPositions: 96 });
});

const problem = 'What is 2 + 3 * 4?';
const solution = '3 * 4 = 12.\n2 + 12 = 14.\nThe answer is 14.';
const longSolution = Array.from({ length: 20 }, (_, index) => `Step ${index + 1}: we add one more apple to the basket.`).join('\n');

interface RecordJson {
  outcome: number;
  stepScores: (number | null)[];
  steps: string[];
  aggregate: { name: string; value: number | null; scoredSteps?: number };
  meta: Record<string, unknown>;
  notes: string[];
  backend: string;
  gauge: string;
}

function onlyRecord(stdout: string): RecordJson {
  const records = jsonLines(stdout);
  expect(records).toHaveLength(1);
  return records[0] as unknown as RecordJson;
}

describe('score --model', () => {
  it('scores with the recipe config.json implies, on the backend auto resolution picks, and says so', async () => {
    const { exitCode, stdout, stderr } = await runMain(['score', '--model', classifier, '--problem', problem, '--solution', solution, '--json']);
    expect(exitCode).toBe(0);
    expect(stderr).toBe('');
    const record = onlyRecord(stdout);
    expect(record.steps).toEqual(solution.split('\n'));
    expect(record.stepScores).toHaveLength(3);
    expect(record.stepScores.every((score) => typeof score === 'number' && Number.isFinite(score))).toBe(true);
    expect(record.outcome).toBe(record.stepScores[2]);
    expect(record.backend).toBe('onnx-node');
    expect(record.gauge).toBe('INVARIANT');
    expect(record.notes).toContain('recipe "sequence-classifier" inferred from config.json\'s architecture');
    expect(record.notes[0]).toBe(`backend "onnx-node" ran the weights in ${classifier}`);
    expect(record.meta).not.toHaveProperty('notes');
  });

  it('--recipe names the recipe for a folder whose architecture implies none; the scores are the same', async () => {
    const inferred = onlyRecord((await runMain(['score', '--model', classifier, '--problem', problem, '--solution', solution, '--json'])).stdout);
    const named = await runMain(['score', '--model', causal, '--recipe', 'sequence-classifier', '--problem', problem, '--solution', solution, '--json']);
    expect(named.exitCode).toBe(0);
    const record = onlyRecord(named.stdout);
    expect(record.stepScores).toEqual(inferred.stepScores);
    expect(record.notes.some((note) => note.includes('inferred'))).toBe(false);
  });

  it('without --recipe, a folder whose architecture implies none is a MODEL_LOAD error asking for --recipe', async () => {
    const { exitCode, stdout, stderr } = await runMain(['score', '--model', causal, '--problem', problem, '--solution', solution]);
    expect(exitCode).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(new RegExp(`^reward-lens: MODEL_LOAD: ${causal}/config\\.json: .*pass --recipe <name>, one of: plain-value, .*sequence-classifier`));
    expect(stderr.split('\n')).toHaveLength(2);
  });

  it('an unknown --recipe is a usage error listing the recipes', async () => {
    const { exitCode, stderr } = await runMain(['score', '--model', classifier, '--recipe', 'nope', '--problem', problem, '--solution', solution]);
    expect(exitCode).toBe(2);
    expect(stderr).toContain(
      'reward-lens: --recipe must be one of plain-value, qwen2.5-math-prm, math-shepherd, rlhflow-llama3.1, skywork-o1-prm, trl-token-classification, trl-likelihood, sequence-classifier, got "nope"',
    );
  });

  it('--dtype holds the weights reduced: q8 on onnx-node (MatMulNBits) as on tiny; bf16 skips onnx-node, saying why; the notes say so, the scores stay near fp32', async () => {
    const score = async (...flags: string[]) => {
      const { exitCode, stdout, stderr } = await runMain(['score', '--model', classifier, ...flags, '--problem', problem, '--solution', solution, '--json']);
      expect(stderr).toBe('');
      expect(exitCode).toBe(0);
      return onlyRecord(stdout);
    };
    const fp32 = await score('--backend', 'tiny');
    const onnx = await score('--dtype', 'q8');
    expect(onnx.backend).toBe('onnx-node');
    expect(onnx.notes.some((note) => note.includes("q8 projection weights (onnxruntime's MatMulNBits)"))).toBe(true);
    const tiny = await score('--dtype', 'q8', '--backend', 'tiny');
    expect(tiny.notes.some((note) => note.startsWith('backend "tiny" holds the projection weights and the embedding table as q8'))).toBe(true);
    // The same quantized weights, float32 products on both backends.
    expectScoresClose(onnx.stepScores, tiny.stepScores, 1e-4);
    expectScoresClose(tiny.stepScores, fp32.stepScores, 0.02);
    expect(tiny.stepScores).not.toEqual(fp32.stepScores);
    const half = await score('--dtype', 'bf16');
    expect(half.backend).toBe('tiny');
    expect(half.notes).toContain('backend "onnx-node" skipped: it does not hold weights as bf16 (it holds fp32, fp16, q8, q4)');
  });

  it('an unknown --dtype is a usage error listing the dtypes', async () => {
    const { exitCode, stderr } = await runMain(['score', '--model', classifier, '--dtype', 'int3', '--problem', problem, '--solution', solution]);
    expect(exitCode).toBe(2);
    expect(stderr).toContain('reward-lens: --dtype must be one of fp32, fp16, bf16, q8, q4, got "int3"');
  });

  it('--seed has no use with --model', async () => {
    const { exitCode, stderr } = await runMain(['score', '--model', classifier, '--seed', '3', '--problem', problem, '--solution', solution]);
    expect(exitCode).toBe(2);
    expect(stderr).toContain("--seed picks the seeded tiny model's weights; it has no use with --model");
  });

  it('a sequence longer than the model is an error that suggests --truncation left', async () => {
    const { exitCode, stderr } = await runMain(['score', '--model', classifier, '--problem', problem, '--solution', longSolution]);
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(
      /^reward-lens: SEQUENCE_TOO_LONG: sequence of \d+ tokens is longer than the model's 96 positions \(pass --truncation left to keep the end\)\n$/,
    );
  });

  it('--truncation left keeps the end: cut-off steps are null, and the aggregate is over the scored steps, with notes', async () => {
    const { exitCode, stdout } = await runMain([
      'score',
      ...flags({ model: classifier, problem, solution: longSolution, truncation: 'left', aggregate: 'mean', json: true }),
    ]);
    expect(exitCode).toBe(0);
    const record = onlyRecord(stdout);
    const scored = record.stepScores.filter((score): score is number => score !== null);
    const cut = record.stepScores.length - scored.length;
    expect(record.stepScores).toHaveLength(20);
    expect(cut).toBeGreaterThan(0);
    expect(record.stepScores.slice(0, cut).every((score) => score === null)).toBe(true);
    expect(record.outcome).toBe(record.stepScores[19]);
    expect(record.aggregate.name).toBe('mean');
    expect(record.aggregate.scoredSteps).toBe(scored.length);
    expect(record.aggregate.value).toBeCloseTo(scored.reduce((sum, score) => sum + score, 0) / scored.length, 6);
    expect(record.meta.truncatedTokens).toBeGreaterThan(0);
    expect(record.notes).toContain(`mean is over the ${scored.length} scored steps of 20; steps 1–${cut} left out (no score)`);
    expect(record.notes.some((note) => note.startsWith('truncated '))).toBe(true);
    const table = await runMain(['score', '--model', classifier, '--problem', problem, '--solution', longSolution, '--truncation', 'left']);
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toMatch(/^ {2}note: min is over the \d+ scored steps of 20;/m);
  });

  it('--truncation takes none or left', async () => {
    const { exitCode, stderr } = await runMain(['score', '--truncation', 'right', '--problem', problem, '--solution', solution]);
    expect(exitCode).toBe(2);
    expect(stderr).toContain('--truncation must be none or left, got "right"');
  });

  it("caps --model shows the folder's recipe and the notes of the load", async () => {
    const { exitCode, stdout } = await runMain(['caps', '--model', classifier, '--json']);
    expect(exitCode).toBe(0);
    const [report] = jsonLines(stdout);
    expect(report).toMatchObject({ backend: 'onnx-node', recipe: { name: 'sequence-classifier' }, heads: [{ name: 'value', kind: 'value', width: 1 }] });
    expect(report!.notes).toContain('recipe "sequence-classifier" inferred from config.json\'s architecture');
  });
});

describe('score --model on a folder holding an ONNX graph beside its safetensors weights', () => {
  // The graph is exported from other weights (another seed), so the scores tell which file was read.
  const other = join(root, 'other-weights');
  const otherOnnx = join(root, 'other-weights-onnx');
  const flat = join(root, 'weights-and-model-onnx');
  const hub = join(root, 'weights-and-onnx-folder');
  beforeAll(async () => {
    await writeRandomClassifierFolder(other, { architectures: ['LlamaForSequenceClassification'], maxPositions: 96, seed: 9 });
    expect((await runMain(['export', 'onnx', other, otherOnnx])).exitCode).toBe(0);
    for (const folder of [flat, hub]) await cp(classifier, folder, { recursive: true });
    await copyFile(join(otherOnnx, 'onnx', 'model.onnx'), join(flat, 'model.onnx'));
    await mkdir(join(hub, 'onnx'));
    await copyFile(join(otherOnnx, 'onnx', 'model.onnx'), join(hub, 'onnx', 'model.onnx'));
  });
  const score = async (model: string, backend: string) => {
    const run = await runMain(['score', '--model', model, '--backend', backend, '--problem', problem, '--solution', solution, '--json']);
    expect(run.stderr, `${model} on ${backend}`).toBe('');
    expect(run.exitCode).toBe(0);
    return onlyRecord(run.stdout);
  };

  it('--backend tiny reads the weights (model.onnx or onnx/model.onnx beside them), and says the graph was not read', async () => {
    const weightsOnly = await score(classifier, 'tiny');
    for (const [folder, graph] of [
      [flat, join(flat, 'model.onnx')],
      [hub, join(hub, 'onnx', 'model.onnx')],
    ] as const) {
      const record = await score(folder, 'tiny');
      expect(record.backend).toBe('tiny');
      expect(record.stepScores).toEqual(weightsOnly.stepScores);
      expect(record.notes).toContain(`backend "tiny" runs weights, not ONNX graphs: the safetensors weights are read, not ${graph}`);
    }
  });

  it('auto and --backend onnx-node read the graph, and say the weights beside it were not', async () => {
    const graphOnly = await score(otherOnnx, 'onnx-node');
    const weights = await score(classifier, 'onnx-node');
    for (const backend of ['auto', 'onnx-node']) {
      const record = await score(flat, backend);
      expect(record.backend).toBe('onnx-node');
      expect(record.stepScores).toEqual(graphOnly.stepScores);
      expect(record.stepScores).not.toEqual(weights.stepScores);
      expect(record.notes).toContain(
        `found ${join(flat, 'model.onnx')}: the ONNX graph is run, not the safetensors weights (a backend named that runs weights, such as tiny, reads them)`,
      );
    }
  });
});

describe('score --model on a config.json declaring max_position_embeddings: 1e12', () => {
  const huge = join(root, 'classifier-1e12-positions');
  beforeAll(async () => {
    await cp(classifier, huge, { recursive: true });
    const config = JSON.parse(await readFile(join(classifier, 'config.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(join(huge, 'config.json'), JSON.stringify({ ...config, max_position_embeddings: 1e12 }));
  });

  // Rotary tables for every declared position were 4 TB (a raw "Invalid typed array length" on the
  // ONNX and WebGPU backends; 1e8 took minutes and 3 GB): they now follow the positions scored.
  it.each(['tiny', 'onnx-node', 'onnx-web', 'webgpu'])(
    '%s scores it as it scores the same weights with 96 positions',
    async (backend) => {
      const run = async (model: string) => {
        const result = await runMain(['score', '--model', model, '--backend', backend, '--problem', problem, '--solution', solution, '--json']);
        expect(result.stderr).toBe('');
        expect(result.exitCode).toBe(0);
        return onlyRecord(result.stdout);
      };
      const [declared, usual] = [await run(huge), await run(classifier)];
      expect(declared.backend).toBe(backend);
      expectScoresClose(declared.stepScores, usual.stepScores, 1e-5);
    },
    180_000,
  );
});

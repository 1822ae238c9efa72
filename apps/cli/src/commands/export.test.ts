import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectScoresClose } from '../../test/support/expect-scores-close.js';
import { stories260kFiles, writeRandomClassifierFolder } from '../../test/support/model-folders.js';
import { jsonLines, runMain } from '../../test/support/run-main.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-cli-export-'));
afterAll(() => rm(root, { recursive: true, force: true }));
const stories = join(root, 'stories260k');
const storiesOnnx = join(root, 'stories260k-onnx');
/** A `LlamaForSequenceClassification`: its recipe is inferred from config.json, before and after export. */
const classifier = join(root, 'classifier');
const classifierOnnx = join(root, 'classifier-onnx');
/** `generate` greedy from BOS for 200 tokens, as llama2.c's run does without -i. */
const greedyFromBos = (model: string, backend: string, ...flags: string[]) =>
  runMain(['generate', '--model', model, '--backend', backend, ...flags, '--max-tokens', '200', '--temperature', '0', '--prompt', '']);
/** `generate` greedy from BOS prints run.c's 200 tokens exactly, with nothing on stderr. */
async function expectRunCGreedy(model: string, backend: string, ...flags: string[]): Promise<void> {
  const greedy200 = await readFile(stories260kFiles().greedy200, 'utf8');
  const { exitCode, stdout, stderr } = await greedyFromBos(model, backend, ...flags);
  expect(stderr).toBe('');
  expect(exitCode).toBe(0);
  expect(stdout).toBe(`${greedy200}\n`);
}
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// The pipeline a user runs: llama2.c files in, a Hugging Face folder, then its ONNX export.
beforeAll(async () => {
  const files = stories260kFiles();
  const converted = await runMain(['convert', 'llama2c', files.checkpoint, files.tokenizer, stories]);
  expect(converted.exitCode).toBe(0);
  await writeRandomClassifierFolder(classifier, { architectures: ['LlamaForSequenceClassification'], maxPositions: 96 });
});

describe('export onnx', () => {
  it('exports a causal LM with its LM head and the cache, and says what it wrote', async () => {
    const { exitCode, stdout, stderr } = await runMain(['export', 'onnx', stories, storiesOnnx]);
    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    // Sizes depend on the exporter's graph; the layout does not.
    const lines = stdout.replace(/\d+(\.\d)? (bytes|KiB|MiB)/g, '<size>').split('\n');
    expect(lines).toEqual([
      `wrote ${storiesOnnx}`,
      '  onnx/model.onnx                 ONNX opset 17 graph, heads at every position',
      '                                  (transformers.js, Optimum tools), with its',
      '                                  weights, <size>',
      '  onnx/model_read_positions.onnx  the same graph with heads computed only at',
      '                                  read_positions.* (what reward-lens runs), with',
      '                                  its weights, <size>',
      '  config.json                     LlamaForCausalLM: hidden 64, 5 layers,',
      '                                  vocabulary 512, 512 positions; heads and',
      '                                  outputs under "reward_lens", <size>',
      '  generation_config.json          BOS and EOS: where generation stops, <size>',
      '  tokenizer.json                  copied from the model folder, <size>',
      '  tokenizer_config.json           copied from the model folder, <size>',
      '  heads                           the LM head of a LlamaForCausalLM',
      '  inputs                          input_ids, attention_mask, position_ids,',
      '                                  past_key_values.{0..4}.{key,value}',
      '  outputs                         logits (lm head "lm", width 512),',
      '                                  present.{0..4}.{key,value}',
      '',
    ]);
    expect(stdout).toMatch(/^ {2}tokenizer\.json {18}copied from the model folder, 19\.1 KiB$/m);
    expect((await readdir(storiesOnnx)).sort()).toEqual(['config.json', 'generation_config.json', 'onnx', 'tokenizer.json', 'tokenizer_config.json']);
    expect((await readdir(join(storiesOnnx, 'onnx'))).sort()).toEqual(['model.onnx', 'model_read_positions.onnx']);
    expect(JSON.parse(await readFile(join(storiesOnnx, 'generation_config.json'), 'utf8'))).toEqual({ bos_token_id: 1, eos_token_id: [2, 1] });
    const config = JSON.parse(await readFile(join(storiesOnnx, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(config).toMatchObject({
      architectures: ['LlamaForCausalLM'],
      bos_token_id: 1,
      eos_token_id: 2,
      reward_lens: { onnx_heads: [{ name: 'lm', kind: 'lm', output: 'logits' }], onnx_with_past: true, onnx_hidden_states: false },
    });
    expect(await readFile(join(storiesOnnx, 'tokenizer.json'), 'utf8')).toBe(await readFile(join(stories, 'tokenizer.json'), 'utf8'));
  });

  it("generate --model reads the export on onnx-node: greedy from BOS prints run.c's 200 tokens exactly", async () => {
    await expectRunCGreedy(storiesOnnx, 'onnx-node');
  });

  it("export onnx --dtype q8 writes onnx/model_quantized.onnx (MatMulNBits); generate --dtype q8 on it, and on the weights, prints run.c's 200 tokens", async () => {
    const quantized = join(root, 'stories260k-onnx-q8');
    const exported = await runMain(['export', 'onnx', stories, quantized, '--dtype', 'q8']);
    expect(exported.exitCode).toBe(0);
    const report = exported.stdout.replace(/\s+/g, ' ');
    expect(report).toContain(
      'onnx/model_quantized.onnx ONNX opset 17 graph, heads at every position (transformers.js, Optimum tools), projections as q8 (MatMulNBits, onnxruntime only)',
    );
    expect(await readdir(join(quantized, 'onnx'))).toEqual(expect.arrayContaining(['model_quantized.onnx', 'model_read_positions_quantized.onnx']));
    for (const [model, backend] of [
      [quantized, 'onnx-node'],
      [stories, 'tiny'],
    ] as const) {
      await expectRunCGreedy(model, backend, '--dtype', 'q8');
    }
    expect((await runMain(['export', 'onnx', stories, join(root, 'never'), '--dtype', 'q3'])).stderr).toContain(
      '--dtype must be one of fp32, q8, q4, got "q3"',
    );
  });

  it('exports a sequence classifier with --recipe; score --model reads the export as it reads the weights', async () => {
    const exported = await runMain(['export', 'onnx', classifier, classifierOnnx, '--recipe', 'sequence-classifier', '--hidden-states']);
    expect(exported.exitCode).toBe(0);
    expect(exported.stdout).toMatch(/^ {2}heads {27}the heads recipe "sequence-classifier" reads$/m);
    expect(exported.stdout).toMatch(
      /^ {2}outputs {25}scores\.value \(value head "value", width 1\),\n {34}hidden_states\.\{0\.\.2\},\n {34}present\.\{0\.\.1\}\.\{key,value\}$/m,
    );
    const config = JSON.parse(await readFile(join(classifierOnnx, 'config.json'), 'utf8')) as { architectures: string[] };
    expect(config.architectures).toEqual(['LlamaForSequenceClassification']);

    const input = ['--problem', 'What is 2 + 3 * 4?', '--solution', '3 * 4 = 12.\n2 + 12 = 14.\nThe answer is 14.', '--json'];
    const fromOnnx = await runMain(['score', '--model', classifierOnnx, ...input]);
    expect(fromOnnx.stderr).toBe('');
    expect(fromOnnx.exitCode).toBe(0);
    const [onnx] = jsonLines(fromOnnx.stdout) as { stepScores: number[]; backend: string; notes: string[] }[];
    const [weights] = jsonLines((await runMain(['score', '--model', classifier, '--backend', 'tiny', ...input])).stdout) as { stepScores: number[] }[];
    expect(onnx!.backend).toBe('onnx-node');
    expect(onnx!.notes).toEqual([
      `backend "onnx-node" ran the ONNX graph ${join(classifierOnnx, 'onnx', 'model_read_positions.onnx')}`,
      'backend "webgpu" skipped: backend "webgpu" runs decoder weights in memory, not ONNX graphs',
      'recipe "sequence-classifier" inferred from config.json\'s architecture',
    ]);
    expect(onnx!.stepScores).toHaveLength(3);
    expectScoresClose(onnx!.stepScores, weights!.stepScores, 1e-4);
  });

  it('--no-past leaves the cache out: score reads the graph, generate says why it cannot', async () => {
    const out = join(root, 'stories260k-no-past');
    const exported = await runMain(['export', 'onnx', stories, out, '--no-past']);
    expect(exported.exitCode).toBe(0);
    expect(exported.stdout).toMatch(/^ {2}inputs {26}input_ids, attention_mask, position_ids$/m);
    expect(exported.stdout).toMatch(/^ {2}outputs {25}logits \(lm head "lm", width 512\)$/m);
    const { exitCode, stdout, stderr } = await runMain(['generate', '--model', out, '--prompt', 'Tom']);
    expect(exitCode).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `reward-lens: MODEL_LOAD: ${join(out, 'onnx', 'model_read_positions.onnx')}: generate needs a KV cache, and backend "onnx-node" has none for this model ` +
        '(an ONNX graph exported with --no-past has no past_key_values inputs)\n',
    );
  });

  it('generate refuses an export without an LM head, naming the heads it has', async () => {
    const { exitCode, stderr } = await runMain(['generate', '--model', classifierOnnx, '--prompt', 'Tom']);
    expect(exitCode).toBe(1);
    expect(stderr).toBe(
      `reward-lens: MODEL_LOAD: ${join(classifierOnnx, 'onnx', 'model_read_positions.onnx')}: generate needs an LM head named "lm", and this model has none ` +
        '(its heads: value (value)); export a causal LM, or name a recipe with an LM head\n',
    );
  });

  it("generate --backend tiny on a folder holding both the weights and onnx/model.onnx reads the weights: run.c's 200 tokens", async () => {
    const both = join(root, 'stories260k-weights-and-onnx');
    await cp(stories, both, { recursive: true });
    await mkdir(join(both, 'onnx'));
    await cp(join(storiesOnnx, 'onnx', 'model.onnx'), join(both, 'onnx', 'model.onnx'));
    await expectRunCGreedy(both, 'tiny');
  });

  it('--backend tiny cannot run an ONNX folder, and the error says why', async () => {
    const { exitCode, stderr } = await runMain(['generate', '--model', storiesOnnx, '--backend', 'tiny', '--prompt', 'Tom']);
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(/^reward-lens: BACKEND_RESOLUTION: .*"tiny".*\n {2}- tiny: backend "tiny" runs decoder weights in memory, not ONNX graphs\n$/);
  });
});

describe('export onnx errors', () => {
  it('a missing model folder is a MODEL_LOAD error naming it', async () => {
    const missing = join(root, 'no-such-model');
    const out = join(root, 'never-written');
    const { exitCode, stdout, stderr } = await runMain(['export', 'onnx', missing, out]);
    expect(exitCode).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(`reward-lens: MODEL_LOAD: ${missing}: folder not found\n`);
    expect(existsSync(out)).toBe(false);
  });

  it('a *ForSequenceClassification folder needs no --recipe: it is inferred as score infers it', async () => {
    const out = join(root, 'classifier-inferred');
    const { exitCode, stdout } = await runMain(['export', 'onnx', classifier, out]);
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(
      /^ {2}heads {27}the heads recipe "sequence-classifier" reads\n {34}\(inferred from config\.json's architecture\n {34}LlamaForSequenceClassification\)$/m,
    );
    expect(JSON.parse(await readFile(join(out, 'config.json'), 'utf8'))).toMatchObject({ reward_lens: { onnx_heads: [{ name: 'value', kind: 'value' }] } });
  });

  it('a config.json whose architecture says nothing about its heads needs --recipe, and nothing is written', async () => {
    const source = join(root, 'unknown-architecture');
    await writeRandomClassifierFolder(source, { architectures: ['LlamaModel'], maxPositions: 96 });
    const out = join(root, 'unknown-without-recipe');
    const { exitCode, stderr } = await runMain(['export', 'onnx', source, out]);
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(
      new RegExp(
        `^reward-lens: MODEL_LOAD: ${escaped(join(source, 'config.json'))}: says the architecture is LlamaModel, not a \\*ForCausalLM, ` +
          'so which heads to export is not known; pass --recipe <name>, one of: plain-value, .*sequence-classifier \\(reward-lens recipes describes them\\)\\n$',
      ),
    );
    expect(existsSync(out)).toBe(false);
  });

  it('does not write into a folder that holds files unless --force', async () => {
    const out = join(root, 'occupied');
    await mkdir(out);
    await writeFile(join(out, 'notes.txt'), 'keep me');
    const refused = await runMain(['export', 'onnx', stories, out]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toBe(`reward-lens: INVALID_INPUT: ${out}: the folder is not empty (it holds notes.txt); pass --force to write into it\n`);
    expect(await readdir(out)).toEqual(['notes.txt']);
    const forced = await runMain(['export', 'onnx', stories, out, '--force']);
    expect(forced.exitCode).toBe(0);
    expect(existsSync(join(out, 'onnx', 'model.onnx'))).toBe(true);
  });

  it('refuses to export into the model folder itself, even with --force', async () => {
    const { exitCode, stderr } = await runMain(['export', 'onnx', stories, `${stories}/`, '--force']);
    expect(exitCode).toBe(1);
    expect(stderr).toBe(`reward-lens: INVALID_INPUT: ${stories}/: is the model folder itself; export into another folder\n`);
    expect(existsSync(join(stories, 'onnx'))).toBe(false);
  });

  it.each([
    [[], 'give the format to export to: onnx'],
    [['gguf', 'a', 'b'], 'unknown format "gguf"'],
    [['onnx', 'a'], 'export onnx needs <model-folder> <out-folder>'],
    [['onnx', 'a', 'b', 'c'], 'unexpected argument "c"'],
    [['onnx', 'a', 'b', '--recipe', 'nope'], '--recipe must be one of plain-value, '],
    [['onnx', 'a', 'b', '--past'], 'unknown option --past'],
  ])('%j is a usage error', async (args, message) => {
    const { exitCode, stderr } = await runMain(['export', ...args]);
    expect(exitCode).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain('reward-lens export onnx <model-folder> <out-folder>');
  });
});

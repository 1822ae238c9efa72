import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import '@reward-lens/backend-onnx-node/register';
import { isDecoderSource, ProcessRM, registerBackend } from '@reward-lens/core';
import { createReferenceBackend } from '@reward-lens/core/testing';
import { dequantizeRows } from '@reward-lens/spec/internal';
import { defaultModelRecipe, loadDefaultPrm } from '@reward-lens/model-default';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { exportModelFolder } from '@reward-lens/onnx-export/node';
import { loadDecoderFolder } from '@reward-lens/core/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The default PRM exported to ONNX keeps how it is read beyond its weights: its calibration and
// its learned step detector (an export once scored 0.861 / 0.038 / 0.103 instead of 0.950 / 0.149
// / 0.202, EXPLORATORY, and left a one-line solution one step).

const problem =
  'Lena buys 81 bags of stamps. She puts the bags into 3 equal piles and keeps one pile. She gives 14 bags to Mia. She ends up with 2 times as many bags. How many bags does Lena end up with?';
const steps = [
  '81 bags in 3 piles is 81 ÷ 3 = 27 bags.',
  '27 bags less 14 bags is 27 − 14 = 13 bags.',
  '13 bags times 2 is 13 × 2 = 62 bags.',
  'The answer is 62.',
];

// The shipped folder (the Node entry's `defaultModelFolder`; found through the package, whichever entry types resolve to).
const defaultModelFolder = join(dirname(createRequire(import.meta.url).resolve('@reward-lens/model-default/package.json')), 'model');

let root: string;
let exported: string;
let exportedQ4: string;
let heads: Awaited<ReturnType<typeof loadDefaultPrm>>['recipe']['heads'];
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'reward-lens-exported-default-'));
  exported = join(root, 'default-onnx');
  exportedQ4 = join(root, 'default-onnx-q4');
  heads = (await loadDefaultPrm({ calibrated: false })).recipe.heads;
  await exportModelFolder(defaultModelFolder, exported, { heads });
  await exportModelFolder(defaultModelFolder, exportedQ4, { heads, dtype: 'q4' });
});
// The float64 oracle (core's reference decoder, written apart from every backend), for the folder's weights.
const removeOracle = registerBackend({
  name: 'oracle-for-export',
  priority: 0,
  explicitOnly: true,
  sourceKinds: ['decoder'],
  // A loader's q4 tensors are widened to the float32 values every backend computes with.
  dtypes: ['fp32', 'q4'],
  unavailableReason: () => null,
  async create(source) {
    if (!isDecoderSource(source)) throw new Error('the oracle runs decoder weights');
    const tensors = new Map(source.model.tensors);
    for (const [name, held] of source.model.quantized ?? []) {
      const widened = new Float32Array(held.rows * held.columns);
      dequantizeRows(held, 0, held.rows, widened);
      tensors.set(name, widened);
    }
    return createReferenceBackend({ config: source.model.config, tensors });
  },
});
afterAll(async () => {
  removeOracle();
  await rm(root, { recursive: true, force: true });
});

describe('the default PRM exported to ONNX', () => {
  it('holds its calibration.json and step-detector.json', async () => {
    expect(await readdir(exported)).toEqual(expect.arrayContaining(['calibration.json', 'step-detector.json', 'tokenizer.json']));
  });

  it('scores on onnx-node as the default PRM does, calibrated, and splits a one-line solution with its detector', async () => {
    const reference = await loadDefaultPrm({ backend: 'tiny' });
    const onnx = await ProcessRM.fromPretrained(exported, { recipe: defaultModelRecipe, backend: 'onnx-node' });
    try {
      expect(onnx.backend.name).toBe('onnx-node');
      const expected = await reference.stepScores([{ problem, steps }]);
      const actual = await onnx.stepScores([{ problem, steps }]);
      expect(actual.notes.join('\n')).toContain('calibration');
      expect([actual.trust, actual.gauge]).toEqual([expected.trust, expected.gauge]);
      Array.from(actual.value.curves[0]!).forEach((score, index) => expect(score).toBeCloseTo(expected.value.curves[0]![index]!, 3));
      // And against the float64 oracle on the same folder's weights, which neither backend shares code with.
      const oracle = await ProcessRM.fromPretrained(defaultModelFolder, { recipe: defaultModelRecipe, backend: 'oracle-for-export' });
      const exact = await oracle.stepScores([{ problem, steps }]);
      await oracle.dispose();
      expect(exact.trust).toBe(actual.trust);
      Array.from(actual.value.curves[0]!).forEach((score, index) => expect(score).toBeCloseTo(exact.value.curves[0]![index]!, 3));
      const oneLine = await onnx.stepScores([{ problem, solution: steps.join(' ') }]);
      expect(oneLine.value.stepCounts[0]).toBeGreaterThan(1);
      expect(oneLine.value.meta[0]!.stepMethod).toBe('learned');
    } finally {
      await reference.dispose();
      await onnx.dispose();
    }
  });

  it('exported at q4 (MatMulNBits, onnx/model_q4.onnx) scores on onnx-node as backend-tiny does at q4, from the folder and from the weights in memory', async () => {
    expect(await readdir(join(exportedQ4, 'onnx'))).toEqual(expect.arrayContaining(['model_q4.onnx', 'model_read_positions_q4.onnx']));
    const tiny = await loadDefaultPrm({ backend: 'tiny', dtype: 'q4' });
    // Without a dtype the folder's only graph, the q4 one its config names, is run; with one, it must match.
    const fromFolder = await ProcessRM.fromPretrained(exportedQ4, { recipe: defaultModelRecipe, backend: 'onnx-node' });
    const named = await ProcessRM.fromPretrained(exportedQ4, { recipe: defaultModelRecipe, dtype: 'q4' });
    // The safetensors folder at q4 on onnx-node: quantized as read, exported in memory.
    const inMemory = await ProcessRM.fromPretrained(defaultModelFolder, { recipe: defaultModelRecipe, backend: 'onnx-node', dtype: 'q4' });
    // The independent side: the float64 oracle over the same q4 weights widened.
    const oracle = await ProcessRM.fromPretrained(defaultModelFolder, { recipe: defaultModelRecipe, backend: 'oracle-for-export', dtype: 'q4' });
    try {
      const exact = await oracle.stepScores([{ problem, steps }]);
      const expected = await tiny.stepScores([{ problem, steps }]);
      Array.from(expected.value.curves[0]!).forEach((score, index) => expect(score).toBeCloseTo(exact.value.curves[0]![index]!, 3));
      expect(expected.value.curves[0]![2]!).toBeLessThan(0.5);
      for (const prm of [fromFolder, named, inMemory]) {
        expect(prm.backend.name).toBe('onnx-node');
        expect(prm.source.weightDtype).toBe('q4');
        const actual = await prm.stepScores([{ problem, steps }]);
        expect(actual.notes.join('\n')).toMatch(/q4 projection weights \(onnxruntime's MatMulNBits\)/);
        Array.from(actual.value.curves[0]!).forEach((score, index) => expect(score).toBeCloseTo(exact.value.curves[0]![index]!, 3));
      }
      await expect(ProcessRM.fromPretrained(exportedQ4, { recipe: defaultModelRecipe, dtype: 'q8' })).rejects.toThrow(
        /no q8 graph \(onnx\/model_quantized\.onnx\) and no safetensors weights|the graph holds q4 weights, not q8/,
      );
    } finally {
      await Promise.all([tiny, fromFolder, named, inMemory, oracle].map((prm) => prm.dispose()));
    }
  });

  it('a float16 graph beside the float32 one (onnx/model_fp16.onnx, as the hub ships it) is run for dtype fp16: calibrated, within a hundredth of the oracle', async () => {
    const folder = join(root, 'default-onnx-fp16');
    await cp(exported, folder, { recursive: true });
    const { model } = await loadDecoderFolder(defaultModelFolder, { heads: [...heads] });
    await writeFile(join(folder, 'onnx', 'model_fp16.onnx'), exportDecoderToOnnx(model, { withPast: true, hiddenStates: true, dtype: 'fp16' }));
    const fp16 = await ProcessRM.fromPretrained(folder, { recipe: defaultModelRecipe, backend: 'onnx-node', dtype: 'fp16' });
    const oracle = await ProcessRM.fromPretrained(defaultModelFolder, { recipe: defaultModelRecipe, backend: 'oracle-for-export' });
    try {
      expect([fp16.backend.precision, fp16.source.weightDtype]).toEqual(['fp16', 'fp16']);
      const [actual, exact] = [await fp16.stepScores([{ problem, steps }]), await oracle.stepScores([{ problem, steps }])];
      expect(actual.notes.join('\n')).toContain('onnx/model_fp16.onnx');
      expect(actual.notes.join('\n')).toContain('runs a float16 graph');
      expect(actual.trust).toBe(exact.trust);
      Array.from(actual.value.curves[0]!).forEach((score, index) => expect(Math.abs(score - exact.value.curves[0]![index]!)).toBeLessThan(0.01));
      expect(actual.value.curves[0]![2]!).toBeLessThan(0.5);
    } finally {
      await fp16.dispose();
      await oracle.dispose();
    }
  });
});

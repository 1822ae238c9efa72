import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRandomDecoder, defineDecoderConfig, ModelLoadError, tinyDecoderConfig } from '@reward-lens/spec';
import { writeDecoderFolder } from '@reward-lens/loaders/node';
import { afterAll, describe, expect, it } from 'vitest';
import { recipePresets } from '../recipes/presets.js';
import { byteLevelTokenizerJson, registerOracle } from '../../test/support/byte-level-folder.js';
import { ProcessRM } from './process-rm.js';

// A folder's calibration.json is read with it, as its step-detector.json is.
const recipe = recipePresets['trl-token-classification']!;
const model = createRandomDecoder({ seed: 3, config: defineDecoderConfig({ ...tinyDecoderConfig, vocabSize: 256, heads: recipe.heads }) });
const tokenizerJson = byteLevelTokenizerJson();
const calibration = {
  format: 'reward-lens.step-calibration',
  version: 1,
  map: { method: 'platt', slope: 2, intercept: -1 },
  set: { name: 'held-out test split', domain: 'test text', labelledSteps: 40, items: 10 },
};
const pair = { problem: 'Compute 2+2.', steps: ['2+2=4.', 'The answer is 4.'] };

const remove = registerOracle('oracle-for-calibration', model);
const root = await mkdtemp(join(tmpdir(), 'reward-lens-folder-calibration-'));
afterAll(async () => {
  remove();
  await rm(root, { recursive: true, force: true });
});

async function folderWith(name: string, calibrationText: string | undefined): Promise<string> {
  const folder = join(root, name);
  await writeDecoderFolder(folder, { model, tokenizerJson, hfConfig: { architectures: ['LlamaForTokenClassification'] } });
  if (calibrationText !== undefined) await writeFile(join(folder, 'calibration.json'), calibrationText);
  return folder;
}

describe("fromPretrained reads the folder's calibration.json", () => {
  it('scores through it (trust CALIBRATED, its note), and calibration: null gives the raw scores', async () => {
    const folder = await folderWith('calibrated', JSON.stringify(calibration));
    const calibrated = await ProcessRM.fromPretrained(folder, { backend: 'oracle-for-calibration' });
    const raw = await ProcessRM.fromPretrained(folder, { backend: 'oracle-for-calibration', calibration: null });
    expect(calibrated.calibration?.set.name).toBe('held-out test split');
    expect(calibrated.notes.join('\n')).toContain('found calibration.json');
    expect(raw.calibration).toBeUndefined();
    const [withMap, without] = [await calibrated.stepScores([pair]), await raw.stepScores([pair])];
    Array.from(without.value.curves[0]!).forEach((score, index) =>
      expect(withMap.value.curves[0]![index]).toBeCloseTo(1 / (1 + Math.exp(-(2 * score - 1))), 6),
    );
    expect(withMap.trust).toBe('CALIBRATED');
    expect(without.trust).not.toBe('CALIBRATED');
  });

  it('refuses a malformed calibration.json, naming the file', async () => {
    const folder = await folderWith('malformed', JSON.stringify({ ...calibration, version: 7 }));
    const error = await ProcessRM.fromPretrained(folder, { backend: 'oracle-for-calibration' }).catch((caught: unknown) => caught);
    expect(ModelLoadError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(join(folder, 'calibration.json'));
    expect((error as Error).message).toMatch(/is not a calibration this version reads \(calibration: version 7 is not supported/);
  });
});

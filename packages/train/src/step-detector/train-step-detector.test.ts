import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ProcessRM, stepDetectorFileName, validateStepDetector } from '@reward-lens/core';
import '@reward-lens/backend-tiny/register';
import { createOrganism } from '@reward-lens/organism';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organismRecords, trainSmallOrganismPrm } from '../../test/support/organism-prm.js';
import type { DetectorTrainingEvent } from './train-step-detector.js';
import { trainStepDetector } from './train-step-detector.js';

const heldOutDescription = 'organism seed 2, 60 items, steps joined with spaces';

describe('trainStepDetector', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await trainSmallOrganismPrm();
  }, 120_000);
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('learns where organism steps end from a trained PRM’s hidden states (held-out F1 ≥ 0.95) and ships beside its weights', { timeout: 180_000 }, async () => {
    const prm = await ProcessRM.fromPretrained(folder);
    expect(prm.recipe.name).toBe('trl-token-classification');
    const events: DetectorTrainingEvent[] = [];
    const result = await trainStepDetector({
      prm,
      data: organismRecords(120, 1),
      heldOut: organismRecords(60, 2),
      heldOutDescription,
      dataDescription: 'organism seed 1, 120 items',
      onEvent: (event) => events.push(event),
    });
    expect(result.layers.map((entry) => entry.layer)).toEqual([0, 1, 2]);
    expect(result.heldOut.f1).toBeGreaterThanOrEqual(0.95);
    expect(result.heldOut.boundaries).toBeGreaterThan(150);
    const { detector } = result;
    expect(detector).toMatchObject({ layer: expect.any(Number), lookahead: 1, model: { hiddenSize: 32, numLayers: 2, recipe: 'trl-token-classification' } });
    expect(detector.heldOut).toMatchObject({ precision: result.heldOut.precision, recall: result.heldOut.recall, solutions: 60, data: heldOutDescription });
    expect(validateStepDetector(JSON.parse(JSON.stringify(detector)))).toEqual(detector);
    expect(events.map((event) => event.kind)).toEqual(['features', 'features', 'layer', 'layer', 'layer', 'features', 'held-out']);
    await prm.dispose();

    // In the model folder, fromPretrained loads it and a solution written on one line scores with learned steps.
    await writeFile(join(folder, stepDetectorFileName), JSON.stringify(detector));
    const shipped = await ProcessRM.fromPretrained(folder);
    expect(shipped.stepDetector).toEqual(detector);
    expect(shipped.notes).toContain(`found ${stepDetectorFileName}: learned step detector "${detector.name}"`);
    const item = createOrganism({ seed: 3 }).item(0);
    const evidence = await shipped.stepScores([[item.problem, item.steps.join(' ')]]);
    expect(evidence.value.steps[0]!.map((step) => step.text)).toEqual(item.steps);
    expect(evidence.value.meta[0]).toMatchObject({ stepMethod: 'learned', nSteps: item.steps.length });
    expect(evidence.value.meta[0]!.stepDetection).toContain(`held-out precision ${detector.heldOut.precision.toFixed(3)}`);
    // The same steps, scored as given steps: identical curves (learned steps are ordinary steps downstream).
    const given = await shipped.stepScores([{ problem: item.problem, steps: item.steps }]);
    expect([...evidence.value.curves[0]!]).toEqual([...given.value.curves[0]!]);
    await shipped.dispose();

    // The in-memory (browser) path reads the same file from the folder's bytes.
    const files = Object.fromEntries(
      await Promise.all(
        (await readdir(folder))
          .filter((name) => name.endsWith('.json') || name.endsWith('.safetensors'))
          .map(async (name) => [name, new Uint8Array(await readFile(join(folder, name)))] as const),
      ),
    );
    expect(Object.keys(files)).toContain(stepDetectorFileName);
    const inMemory = await ProcessRM.fromFiles(files);
    expect(inMemory.stepDetector).toEqual(detector);
    expect([...(await inMemory.stepScores([[item.problem, item.steps.join(' ')]])).value.curves[0]!]).toEqual([...evidence.value.curves[0]!]);
    await inMemory.dispose();
  });

  it('chooses the layer on fewer rows when the values would not fit, then refits the chosen layer alone on more', { timeout: 180_000 }, async () => {
    const prm = await ProcessRM.fromPretrained(folder, { stepDetector: null });
    const events: DetectorTrainingEvent[] = [];
    const width = 32 * 2;
    const result = await trainStepDetector({
      prm,
      data: organismRecords(120, 1),
      heldOut: organismRecords(30, 2),
      heldOutDescription,
      maxSelectionValues: width * 3 * 2000,
      onEvent: (event) => events.push(event),
    });
    const fits = events.filter((event) => event.kind === 'features' && event.split === 'fit') as { tokens: number }[];
    expect(fits.map((event) => event.tokens)).toEqual([2000, expect.any(Number)]);
    expect(fits[1]!.tokens).toBeGreaterThan(2000);
    expect(result.detector.training).toMatchObject({ tokensForChoosingTheLayer: 2000, tokensFitted: fits[1]!.tokens });
    expect(events.filter((event) => event.kind === 'layer')).toHaveLength(4);
    expect(result.heldOut.f1).toBeGreaterThanOrEqual(0.95);
    await prm.dispose();
  });

  it('refuses a corrupt step-detector.json by name, and ignores the folder’s detector when told to', { timeout: 60_000 }, async () => {
    const path = join(folder, stepDetectorFileName);
    await writeFile(path, '{"format": "reward-lens.step-detector", "version": 1}');
    await expect(ProcessRM.fromPretrained(folder)).rejects.toMatchObject({
      code: 'MODEL_LOAD',
      file: path,
      message: expect.stringMatching(/name must be a non-empty string/),
    });
    await writeFile(path, '{ not json');
    await expect(ProcessRM.fromPretrained(folder)).rejects.toMatchObject({ code: 'MODEL_LOAD', file: path });
    await rm(path);
    const plain = await ProcessRM.fromPretrained(folder, { stepDetector: null });
    expect(plain.stepDetector).toBeUndefined();
    await plain.dispose();
  });
});

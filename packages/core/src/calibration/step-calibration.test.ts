import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '@reward-lens/spec';
import {
  applyStepCalibration,
  calibrationNote,
  firstStepBelow,
  validateStepCalibration,
  type CalibrationMap,
  type StepCalibration,
} from './step-calibration.js';

const set = { name: 'held-out split', domain: 'arithmetic word problems', labelledSteps: 120, items: 30 };

describe('step calibration', () => {
  it('applies a Platt map as the logistic of an affine score', () => {
    const map: CalibrationMap = { method: 'platt', slope: 2, intercept: -1 };
    expect(applyStepCalibration(map, 0.5)).toBeCloseTo(0.5, 12);
    expect(applyStepCalibration(map, 1)).toBeCloseTo(1 / (1 + Math.exp(-1)), 12);
    expect(applyStepCalibration(map, Number.NaN)).toBeNaN();
  });

  it('interpolates an isotonic map like numpy.interp and clips outside it', () => {
    const map: CalibrationMap = { method: 'isotonic', x: [0, 1, 1, 3], y: [0.1, 0.3, 0.5, 0.9] };
    expect(applyStepCalibration(map, -5)).toBe(0.1);
    expect(applyStepCalibration(map, 0.5)).toBeCloseTo(0.2, 12);
    expect(applyStepCalibration(map, 2)).toBeCloseTo(0.7, 12);
    expect(applyStepCalibration(map, 9)).toBe(0.9);
  });

  it('round-trips through JSON and names the set, its size and its domain in the note', () => {
    const calibration: StepCalibration = { format: 'reward-lens.step-calibration', version: 1, map: { method: 'platt', slope: 1, intercept: 0 }, set };
    const parsed = validateStepCalibration(JSON.parse(JSON.stringify(calibration)));
    expect(parsed).toEqual(calibration);
    expect(calibrationNote(parsed)).toContain('"held-out split": 120 labelled steps from 30 solutions, domain: arithmetic word problems');
  });

  it('carries a decision threshold and finds the first step below it', () => {
    const calibration = validateStepCalibration({
      format: 'reward-lens.step-calibration',
      version: 1,
      map: { method: 'platt', slope: 1, intercept: 0 },
      set,
      threshold: { value: 0.4, chosenOn: 'held-out split' },
    });
    expect(calibration.threshold).toEqual({ value: 0.4, chosenOn: 'held-out split' });
    expect(firstStepBelow([0.9, Number.NaN, 0.3, 0.1], 0.4)).toBe(2);
    expect(firstStepBelow([0.9, 0.5], 0.4)).toBe(-1);
  });

  it.each([
    [
      { format: 'reward-lens.step-calibration', version: 1, set, map: { method: 'platt', slope: 1, intercept: 0 }, threshold: { value: 1.5, chosenOn: 'x' } },
      /threshold.value/,
    ],
    [{ format: 'reward-lens.step-calibration', version: 1, set, map: { method: 'platt', slope: 1, intercept: 0 }, threshold: { value: 0.5 } }, /chosenOn/],
    [{}, /format/],
    [{ format: 'reward-lens.step-calibration', version: 2 }, /version 2/],
    [{ format: 'reward-lens.step-calibration', version: 1, set, map: { method: 'beta' } }, /map.method/],
    [{ format: 'reward-lens.step-calibration', version: 1, set, map: { method: 'platt', slope: 'x', intercept: 0 } }, /map.slope/],
    [{ format: 'reward-lens.step-calibration', version: 1, set, map: { method: 'isotonic', x: [0, 1], y: [0.6, 0.2] } }, /non-decreasing/],
    [{ format: 'reward-lens.step-calibration', version: 1, set: { ...set, domain: '' }, map: { method: 'platt', slope: 1, intercept: 0 } }, /domain/],
  ])('refuses a malformed calibration with a typed error (%#)', (value, message) => {
    expect(() => validateStepCalibration(value)).toThrow(message);
    try {
      validateStepCalibration(value);
    } catch (error) {
      expect(InvalidInputError.isInstance(error)).toBe(true);
    }
  });
});

import { ModelLoadError } from '@reward-lens/spec';
import { readJsonFile, type ModelFiles } from '@reward-lens/loaders';
import { validateStepCalibration, type StepCalibration } from '../calibration/step-calibration.js';

/** Where a model folder keeps the calibration its scores are read through (the default PRM's `model/` has one; `reward-lens eval` fits them). */
export const calibrationFileName = 'calibration.json';

/** The folder's `calibration.json` (`entries`: the folder's listing), checked, or undefined when it has none. A malformed one is a `ModelLoadError` naming the file. */
export async function readFolderCalibration(files: ModelFiles, entries: readonly string[]): Promise<StepCalibration | undefined> {
  if (!entries.includes(calibrationFileName)) return undefined;
  const value = await readJsonFile(files, calibrationFileName);
  try {
    return validateStepCalibration(value);
  } catch (error) {
    throw new ModelLoadError(`is not a calibration this version reads (${error instanceof Error ? error.message : String(error)})`, {
      file: files.describe(calibrationFileName),
      cause: error,
    });
  }
}

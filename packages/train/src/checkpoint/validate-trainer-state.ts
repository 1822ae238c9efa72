import { ModelLoadError } from '@reward-lens/core';
import type { TrainerState } from './trainer-state.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks a parsed `trainer_state.json` field by field before a run trusts it: every count a
 * non-negative integer, the step within the run and equal to its checkpoint's, the lists lists.
 * A hand-edited or corrupt file is refused with a `ModelLoadError` naming the file and the field.
 * JSON writes NaN (a loss or an accuracy over no items) as null: those come back as NaN.
 */
export function validateTrainerState(value: unknown, file: string, folderStep: number | undefined): TrainerState {
  const fail = (field: string, message: string): never => {
    throw new ModelLoadError(`trainer_state.json: ${field} ${message}`, { file });
  };
  if (!isObject(value)) fail('the file', 'is not a JSON object');
  const state = value as Json;
  if (state.formatVersion !== 1) fail('formatVersion', `is ${JSON.stringify(state.formatVersion)}; this version reads 1`);
  const count = (field: string, container: Json = state, name = field): number => {
    const entry = container[name];
    if (typeof entry !== 'number' || !Number.isSafeInteger(entry) || entry < 0) fail(field, `must be a non-negative integer, got ${JSON.stringify(entry)}`);
    return entry as number;
  };
  const step = count('step');
  const totalSteps = count('totalSteps');
  if (totalSteps < 1) fail('totalSteps', 'must be at least 1');
  if (step > totalSteps) fail('step', `is ${step}, past the run's ${totalSteps} steps`);
  if (folderStep !== undefined && step !== folderStep) fail('step', `is ${step}, but the checkpoint folder is step ${folderStep}`);
  count('cursor');
  count('tokensSeen');
  count('recordsSkipped');
  if (typeof state.trainingSeconds !== 'number' || !(state.trainingSeconds >= 0)) fail('trainingSeconds', 'must be a non-negative number');
  if (!isObject(state.random)) fail('random', 'must be an object { seed, epoch?, shuffleState? }');
  const random = state.random as Json;
  if (!Number.isSafeInteger(random.seed)) fail('random.seed', `must be an integer, got ${JSON.stringify(random.seed)}`);
  if (random.epoch !== undefined) count('random.epoch', random, 'epoch');
  if (random.shuffleState !== undefined && !Number.isSafeInteger(random.shuffleState)) fail('random.shuffleState', 'must be an integer');
  if (!isObject(state.hyperparameters)) fail('hyperparameters', 'must be an object');
  if (!isObject(state.data) || typeof (state.data as Json).training !== 'string') fail('data', 'must be { training: string, heldOut: string | null }');
  for (const field of ['losses', 'evaluations', 'notes'] as const)
    if (!Array.isArray(state[field])) fail(field, `must be an array, got ${JSON.stringify(state[field])}`);
  (state.losses as unknown[]).forEach((entry, index) => {
    if (!isObject(entry) || !Number.isSafeInteger(entry.step)) fail(`losses[${index}]`, 'must be an object with an integer step');
  });
  (state.evaluations as unknown[]).forEach((entry, index) => {
    if (!isObject(entry) || !Number.isSafeInteger(entry.step)) fail(`evaluations[${index}]`, 'must be an object with an integer step');
  });
  if (!(state.notes as unknown[]).every((note) => typeof note === 'string')) fail('notes', 'must be an array of strings');
  if (state.checksums !== undefined && (!isObject(state.checksums) || !Object.values(state.checksums).every((sum) => typeof sum === 'string'))) {
    fail('checksums', 'must map file names to sha256 digests');
  }
  if (state.fingerprints !== undefined && (!isObject(state.fingerprints) || !Object.values(state.fingerprints).every((sum) => typeof sum === 'string'))) {
    fail('fingerprints', 'must map what the run was given (data, tokenizer, recipe) to digests');
  }
  const nanFromNull = (entry: unknown) => Object.fromEntries(Object.entries(entry as Json).map(([key, field]) => [key, field === null ? Number.NaN : field]));
  return {
    ...(state as unknown as TrainerState),
    losses: (state.losses as Json[]).map(nanFromNull) as unknown as TrainerState['losses'],
    evaluations: (state.evaluations as Json[]).map(nanFromNull) as unknown as TrainerState['evaluations'],
  };
}

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReadingRecipe } from '@reward-lens/core';
import type { RecordSource } from '../data/record-source.js';

/** How many records, from the start of the training order, the data's fingerprint covers. */
export const fingerprintRecords = 1000;

const digest = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/**
 * The training data's fingerprint: its first records in training order (problem, steps, labels),
 * and its size when finite. A stream is read only that far.
 */
export function dataFingerprint(source: RecordSource): string {
  const hash = createHash('sha256');
  hash.update(`size ${source.size ?? 'stream'}\n`);
  const records = source.from(0);
  for (let index = 0; index < fingerprintRecords; index++) {
    const next = records.next();
    if (next.done) break;
    const { problem, steps, stepLabels, correctPrefix } = next.value;
    hash.update(`${JSON.stringify([problem, steps, stepLabels.map((label) => (Number.isNaN(label) ? null : label)), correctPrefix ?? null])}\n`);
  }
  return `sha256:${hash.digest('hex')}`;
}

/**
 * The tokenizer's: the JSON given (training from scratch), or the init folder's `tokenizer.json`,
 * parsed. Undefined when the options name none (a resume that takes the checkpoint's).
 */
export async function tokenizerFingerprint(
  init: { kind: 'scratch'; tokenizerJson: unknown } | { kind: 'folder'; folder: string },
): Promise<string | undefined> {
  if (init.kind === 'scratch') return digest(JSON.stringify(init.tokenizerJson));
  if (init.folder === '') return undefined;
  const text = await readFile(join(init.folder, 'tokenizer.json'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    return digest(JSON.stringify(JSON.parse(text)));
  } catch {
    return digest(text);
  }
}

/** The reading recipe's (how the model is read and trained). */
export function recipeFingerprint(recipe: ReadingRecipe): string {
  return digest(JSON.stringify(recipe));
}

const described = { data: 'the training data', tokenizer: 'the tokenizer', recipe: 'the reading recipe' } as const;

/** What differs between a checkpoint's fingerprints and this run's, in words ([] when nothing does, or the checkpoint recorded none). */
export function changedFingerprints(recorded: Record<string, string> | undefined, current: Record<keyof typeof described, string | undefined>): string[] {
  if (recorded === undefined) return [];
  return (Object.keys(described) as (keyof typeof described)[])
    .filter((key) => recorded[key] !== undefined && current[key] !== undefined && recorded[key] !== current[key])
    .map((key) => `${described[key]} (${key === 'data' ? `its first ${fingerprintRecords} records in training order` : 'its JSON'} differ from the run's)`);
}

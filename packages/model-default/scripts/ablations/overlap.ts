import { itemFingerprint } from '@reward-lens/eval';
import type { OrganismItem } from '@reward-lens/organism';
import { armRecords } from './arm-records.js';
import type { Arm } from './arms.js';

/** How many of the arm's first `records` training records are also one of the `evaluated` solutions (should be 0). */
export function overlapWithEvaluation(arm: Arm, records: number, evaluated: readonly OrganismItem[]): number {
  const fingerprints = new Set(evaluated.map((item) => itemFingerprint(item.problem, item.steps)));
  let overlap = 0;
  const stream = armRecords(arm.recipe, arm.mix);
  for (let index = 0; index < records; index++) {
    const record = stream.next().value!;
    if (fingerprints.has(itemFingerprint(record.problem, record.steps))) overlap++;
  }
  return overlap;
}

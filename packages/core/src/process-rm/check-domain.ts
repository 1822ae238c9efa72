import { outOfDomainNote, outOfDomainReason, type DomainCheck } from '../domain/domain-check.js';
import type { NormalizedInput } from './scoring-input.js';
import type { TokenizedBatch } from './tokenized-batch.js';

/** Runs the domain checks on every tokenized record; one outside gets `meta.outOfDomain` and a note. */
export function checkDomain(checks: readonly DomainCheck[], normalized: readonly (NormalizedInput | null)[], batch: TokenizedBatch): void {
  batch.pairs.forEach((pair, index) => {
    const input = normalized[index];
    if (batch.errors[index] !== null || input === null || input === undefined) return;
    const reason = outOfDomainReason(checks, { problem: input.problem, steps: pair.steps.map((step) => step.text), inputIds: pair.inputIds });
    if (reason === undefined) return;
    pair.meta.outOfDomain = reason;
    pair.meta.notes.push(outOfDomainNote(reason));
  });
}

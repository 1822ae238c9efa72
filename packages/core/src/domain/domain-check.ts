/** One record as a domain check sees it: the problem, the steps as scored, and the token ids the model read. */
export interface DomainRecord {
  problem: string;
  steps: readonly string[];
  /** The whole laid-out sequence, recipe tokens included. */
  inputIds: Int32Array;
}

/**
 * Whether a record is text of the kind a model (and its calibration) was fitted on. A model ships
 * one beside its calibration (`StepCalibration.domainCheck`, plain data) or its package passes
 * one as code (`ProcessRMOptions.domainChecks`, e.g. a grammar). A record outside the domain is
 * still scored; its notes say how far outside, and its scores are not `CALIBRATED`.
 */
export interface DomainCheck {
  /** Short, for notes: `vocabulary`, `organism grammar`. */
  readonly name: string;
  /** Undefined when the record is in the domain; otherwise why not, in words (how much of it is outside). */
  check(record: DomainRecord): string | undefined;
}

/** Each check's reason for a record, joined, or undefined when every check passes it. */
export function outOfDomainReason(checks: readonly DomainCheck[], record: DomainRecord): string | undefined {
  const reasons: string[] = [];
  for (const check of checks) {
    const reason = check.check(record);
    if (reason !== undefined) reasons.push(`${check.name}: ${reason}`);
  }
  return reasons.length === 0 ? undefined : reasons.join('; ');
}

/** The note an out-of-domain record carries. */
export function outOfDomainNote(reason: string): string {
  return `outside the model's domain (${reason}); its scores are not calibrated for this text (trust EXPLORATORY)`;
}

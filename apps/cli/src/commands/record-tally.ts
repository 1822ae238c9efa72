/** ` (right)` or ` (wrong)` after a judged pick; nothing for a record without a reference. */
export function rightOrWrong(correct: boolean | undefined): string {
  return correct === undefined ? '' : correct ? ' (right)' : ' (wrong)';
}

/** What `rerank` and `search` count over their records for the summary line on stderr. */
export class RecordTally {
  records = 0;
  errors = 0;
  /** Records with a reference answer, and how many of their picks were right. */
  judged = 0;
  right = 0;

  count(outcome: { error: unknown } | { correct?: boolean }): void {
    this.records++;
    if ('error' in outcome) this.errors++;
    else if (outcome.correct !== undefined) {
      this.judged++;
      if (outcome.correct) this.right++;
    }
  }

  /** `reranked 3 of 4 records, 1 error; 2 of 3 picks right (66.7%)`. */
  summary(done: string, what: string, right: string): string {
    const accuracy = this.judged > 0 ? `; ${this.right} of ${this.judged} ${right} (${((100 * this.right) / this.judged).toFixed(1)}%)` : '';
    return `${done} ${this.records - this.errors} of ${this.records} ${what}, ${this.errors} error${this.errors === 1 ? '' : 's'}${accuracy}`;
  }
}

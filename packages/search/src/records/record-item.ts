/** What is wrong with one record, reported in its place while the others go on. */
export interface RecordError {
  code: string;
  message: string;
}

/**
 * One record of an input stream as a reader gives it: a parsed JSON object, or what was wrong
 * with its line. Whatever else the reader adds (a line label, the line's text) rides along to the
 * outcome, so the caller can say which record an answer belongs to.
 */
export type RecordItem = { value: Record<string, unknown> } | { error: RecordError };

/** A record's outcome: what was computed for it, or its error; `item` is the record as it came in. */
export type RecordOutcome<Item, Computed> = ({ item: Item } & Computed) | { item: Item; error: RecordError };

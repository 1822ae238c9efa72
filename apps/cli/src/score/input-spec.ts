import type { RecordInput } from './input-record.js';

/** Where `reward-lens score` takes its records from, as the command line said. */
export type InputSpec =
  | { kind: 'flags'; record: RecordInput }
  | { kind: 'file'; path: string }
  /** `explicit`: `-` was given, rather than stdin being read because it is not a terminal. */
  | { kind: 'stdin'; explicit: boolean };

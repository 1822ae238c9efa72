/** An example the page offers: a problem, a solution with one step per line, and what is known about its steps. */
export interface DemoExample {
  /** Stable id (`organism-0-1`, `gsm8k-0`). */
  id: string;
  group: 'organism' | 'processbench';
  /** Shown in the picker. */
  title: string;
  problem: string;
  /** One step per line. */
  solution: string;
  /** 0-based index of the labelled first error, -1 when every step is correct. */
  firstError: number;
  /** Where the label comes from, said beside it. */
  labelNote: string;
}

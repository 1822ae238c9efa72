/** A step score with its label: 1 when the step is correct (its prefix is clean), 0 when it is the first error. */
export interface LabelledStep {
  score: number;
  label: 0 | 1;
}

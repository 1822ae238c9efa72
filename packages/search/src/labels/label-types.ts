/** A solution to label: its steps and the problem's reference answer. */
export interface LabelInput {
  problem: string;
  steps: readonly string[];
  reference: string;
}

/** The Monte-Carlo value of the prefix of the first `k` steps: the share of rollouts from it that reach the reference answer. */
export interface PrefixValue {
  k: number;
  successes: number;
  /** Rollouts from the prefix (0 when its value was read off the solution's own stated answer). */
  rollouts: number;
  value: number;
  /** `rollouts`, or `final-answer` for the whole solution when it states its answer (checked, not rolled out). */
  source: 'rollouts' | 'final-answer';
}

/** Prefix values already computed for one solution (a resumed run's journal, a cache). */
export interface PrefixValueStore {
  get(k: number): PrefixValue | undefined;
  /** Called once per newly computed value, before labelling goes on: persist it here. */
  put(value: PrefixValue): void | Promise<void>;
}

export interface StepLabels {
  mode: 'sweep' | 'binary';
  /** v_0 .. v_K; null where binary search did not need it. */
  values: (number | null)[];
  /** Per step 1[v_k > 0]: every step (sweep), or up to and including the first error (binary). */
  hard: boolean[];
  /** Per step v_k (sweep only; empty for binary). */
  soft: number[];
  /** Per step v_k - v_{k-1} (sweep only). */
  progress: number[];
  /** 0-based index of the first step whose prefix never reaches the answer; null when there is none. */
  firstError: number | null;
  /** False when no rollout from the problem alone (v_0) reaches the answer: the labels carry no information. */
  solvable: boolean;
  /** Completions rolled out for this solution (values taken from a store cost nothing). */
  completions: number;
  /** What a full sweep over every prefix costs, for comparison. */
  fullSweepCompletions: number;
}

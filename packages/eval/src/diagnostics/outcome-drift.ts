/** Where the lowest step score falls over a set of solutions, as a fraction of the way through. */
export interface OutcomeDrift {
  /** Solutions of at least two steps counted (one-step solutions say nothing about position). */
  items: number;
  /** Counts per bin of relative position argmin / (K − 1): 0 is the first step, 1 the last. */
  histogram: { from: number; to: number; count: number }[];
  /** Fraction of solutions whose lowest step is the last one. */
  lastStepFraction: number;
  /** What a model with no sense of position would give: the mean of 1/K. */
  lastStepFractionByChance: number;
  /** Among solutions with a labelled error, the fraction whose lowest step is the labelled one. */
  argminAtLabel: { hits: number; items: number; fraction: number };
  /** Set when the lowest step is almost always the last: the model behaves like an outcome model with extra steps. */
  warning?: string;
}

/** Accumulates outcome drift one solution at a time, in constant memory. */
export class OutcomeDriftTally {
  private readonly counts: number[];
  private items = 0;
  private last = 0;
  private chance = 0;
  private labelled = 0;
  private hits = 0;

  constructor(
    private readonly bins = 10,
    private readonly warnAt = 0.9,
  ) {
    this.counts = new Array<number>(bins).fill(0);
  }

  /** `label`: the first erroneous step (0-based), −1 for none, undefined when unknown. */
  add(stepScores: ArrayLike<number>, label?: number): void {
    let argmin = -1;
    for (let index = 0; index < stepScores.length; index++) {
      const score = stepScores[index]!;
      if (!Number.isNaN(score) && (argmin === -1 || score < stepScores[argmin]!)) argmin = index;
    }
    if (argmin === -1) return;
    if (label !== undefined && label >= 0) {
      this.labelled++;
      if (argmin === label) this.hits++;
    }
    if (stepScores.length < 2) return;
    this.items++;
    const position = argmin / (stepScores.length - 1);
    this.counts[Math.min(this.bins - 1, Math.floor(position * this.bins))]! += 1;
    if (argmin === stepScores.length - 1) this.last++;
    this.chance += 1 / stepScores.length;
  }

  result(): OutcomeDrift {
    const lastStepFraction = this.items === 0 ? Number.NaN : this.last / this.items;
    const drift: OutcomeDrift = {
      items: this.items,
      histogram: this.counts.map((count, bin) => ({ from: bin / this.bins, to: (bin + 1) / this.bins, count })),
      lastStepFraction,
      lastStepFractionByChance: this.items === 0 ? Number.NaN : this.chance / this.items,
      argminAtLabel: { hits: this.hits, items: this.labelled, fraction: this.labelled === 0 ? Number.NaN : this.hits / this.labelled },
    };
    if (lastStepFraction >= this.warnAt) {
      drift.warning = `the lowest step score is the last step in ${(100 * lastStepFraction).toFixed(1)}% of solutions (${(100 * drift.lastStepFractionByChance).toFixed(1)}% by chance): the model behaves like an outcome reward model with extra steps, and its step scores say little about which step went wrong`;
    }
    return drift;
  }
}

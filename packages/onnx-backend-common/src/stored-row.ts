/**
 * One row's keys and values: per layer `[kvHeads, length, headDim]` row-major. Never written
 * after creation, so forks share it. The arrays are either the row's own copies or views into
 * the `present.*` outputs of the forward that made them (see `rowsOfPresents`).
 */
export interface RowKeyValues {
  keys: KvArray[];
  values: KvArray[];
}

/** A cache's values as the graph holds them: float32, or float16's bits (a float16 graph's `present.*`). */
export type KvArray = Float32Array | Uint16Array;

/**
 * A row's cache as the handles hold it: a handle and its forks share one and count themselves
 * in `hold` / `drop`; the arrays go once the last of them drops it.
 */
export class StoredRow {
  #data: RowKeyValues | null;
  #holders = 1;
  #group: ViewGroup | undefined;

  constructor(data: RowKeyValues, group?: ViewGroup) {
    this.#data = data;
    this.#group = group;
    group?.add(this);
  }

  /** The arrays; only called while held. */
  get data(): RowKeyValues {
    if (this.#data === null) throw new Error('a stored row was read after its last holder dropped it');
    return this.#data;
  }

  hold(): void {
    this.#holders++;
  }

  drop(): void {
    if (--this.#holders > 0) return;
    this.#data = null;
    const group = this.#group;
    this.#group = undefined;
    group?.rowDropped();
  }

  /** Swaps views into shared outputs for copies of its own, so the outputs can be freed. */
  detach(): void {
    const data = this.#data;
    this.#group = undefined;
    if (data === null) return;
    this.#data = { keys: data.keys.map((array) => array.slice()), values: data.values.map((array) => array.slice()) };
  }
}

/**
 * The rows of one forward kept as views into its `present.*` outputs, which hold `outputRows`
 * rows. A view keeps the whole output alive, so once no more than half of those rows are still
 * held, the rest are copied out: views never keep more than twice their own size alive.
 */
export class ViewGroup {
  readonly #rows: StoredRow[] = [];
  #live = 0;

  constructor(readonly outputRows: number) {}

  add(row: StoredRow): void {
    this.#rows.push(row);
    this.#live++;
  }

  rowDropped(): void {
    this.#live--;
    if (this.#live === 0 || this.#live * 2 > this.outputRows) return;
    for (const row of this.#rows) row.detach();
    this.#rows.length = 0;
  }
}

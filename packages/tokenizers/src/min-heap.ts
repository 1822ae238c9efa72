/**
 * A binary min-heap of numbers. The BPE merge loop packs `(rank, position)` into one number so the
 * heap needs no objects and no comparator.
 */
export class NumberMinHeap {
  private readonly items: number[] = [];

  get size(): number {
    return this.items.length;
  }

  push(value: number): void {
    const items = this.items;
    let index = items.length;
    items.push(value);
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const parentValue = items[parent]!;
      if (parentValue <= value) break;
      items[index] = parentValue;
      index = parent;
    }
    items[index] = value;
  }

  /** Removes and returns the smallest value, or `undefined` when empty. */
  pop(): number | undefined {
    const items = this.items;
    if (items.length === 0) return undefined;
    const smallest = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      let index = 0;
      const length = items.length;
      for (;;) {
        const left = 2 * index + 1;
        if (left >= length) break;
        const right = left + 1;
        const child = right < length && items[right]! < items[left]! ? right : left;
        if (items[child]! >= last) break;
        items[index] = items[child]!;
        index = child;
      }
      items[index] = last;
    }
    return smallest;
  }
}

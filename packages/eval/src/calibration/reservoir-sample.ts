import { createSeededRandom, type SeededRandom } from '../random/seeded-random.js';

/** A uniform sample of at most `capacity` items from a stream of any length (Vitter's algorithm R), seeded. */
export class ReservoirSample<Item> {
  readonly items: Item[] = [];
  seen = 0;
  private readonly random: SeededRandom;

  constructor(
    readonly capacity: number,
    seed = 0,
  ) {
    this.random = createSeededRandom(seed);
  }

  add(item: Item): void {
    this.seen++;
    if (this.items.length < this.capacity) {
      this.items.push(item);
      return;
    }
    const slot = Math.floor(this.random.next() * this.seen);
    if (slot < this.capacity) this.items[slot] = item;
  }
}

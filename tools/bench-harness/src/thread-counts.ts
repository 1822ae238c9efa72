import { availableParallelism } from 'node:os';

/** The thread counts a benchmark compares: 1, 2, 4, 8, ... up to the cores, and the cores themselves. */
export function threadCounts(): number[] {
  const cores = availableParallelism();
  const counts = [1];
  for (let count = 2; count <= cores; count *= 2) counts.push(count);
  if (counts.at(-1) !== cores) counts.push(cores);
  return counts;
}

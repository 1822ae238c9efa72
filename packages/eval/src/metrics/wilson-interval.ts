/** The Wilson score interval for a binomial proportion `successes / trials` (z = 1.96: 95%). */
export function wilsonInterval(successes: number, trials: number, z = 1.959963984540054): { low: number; high: number } {
  if (trials === 0) return { low: Number.NaN, high: Number.NaN };
  const proportion = successes / trials;
  const z2 = z * z;
  const centre = (proportion + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z * Math.sqrt((proportion * (1 - proportion)) / trials + z2 / (4 * trials * trials))) / (1 + z2 / trials);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Welch's t statistic of mean(b) - mean(a) (±Infinity when both are constant and differ). */
export function welchT(a: readonly number[], b: readonly number[]): number {
  const stats = (values: readonly number[]) => {
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / Math.max(1, values.length - 1);
    return { mean, variance };
  };
  const left = stats(a);
  const right = stats(b);
  const error = Math.sqrt(left.variance / a.length + right.variance / b.length);
  const difference = right.mean - left.mean;
  return error === 0 ? (difference === 0 ? 0 : Math.sign(difference) * Number.POSITIVE_INFINITY) : difference / error;
}

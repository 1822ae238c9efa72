/**
 * The mean next-token cross-entropy of a batch's language-model reads (full-vocabulary logits read
 * at `positions[row]`, each predicting the token after it) and its gradient in the reads. `scale`
 * multiplies the gradient (the loss's weight in the total); the returned loss is unscaled.
 */
export function nextTokenLoss(
  inputIds: readonly Int32Array[],
  positions: readonly (readonly number[])[],
  values: readonly Float32Array[],
  width: number,
  scale: number,
): { loss: number; tokens: number; gradients: Float32Array[] } {
  const tokens = values.reduce((sum, row) => sum + row.length / width, 0);
  let total = 0;
  const gradients = values.map((row, rowIndex) => {
    const gradient = new Float32Array(row.length);
    const ids = inputIds[rowIndex]!;
    const rowPositions = positions[rowIndex]!;
    for (let slot = 0; slot * width < row.length; slot++) {
      const logits = row.subarray(slot * width, (slot + 1) * width);
      const target = ids[rowPositions[slot]! + 1]!;
      let maximum = -Infinity;
      for (let index = 0; index < width; index++) maximum = Math.max(maximum, logits[index]!);
      let sum = 0;
      for (let index = 0; index < width; index++) sum += Math.exp(logits[index]! - maximum);
      const logSum = maximum + Math.log(sum);
      total += logSum - logits[target]!;
      const out = gradient.subarray(slot * width, (slot + 1) * width);
      for (let index = 0; index < width; index++) out[index] = (Math.exp(logits[index]! - logSum) * scale) / tokens;
      out[target]! -= scale / tokens;
    }
    return gradient;
  });
  return { loss: tokens > 0 ? total / tokens : Number.NaN, tokens, gradients };
}

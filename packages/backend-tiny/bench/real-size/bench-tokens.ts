/** The 7B bench's input: `count` token ids below Qwen2's 151,643 text tokens, and four step ends (the last token among them). */
export function benchTokens(count: number): { ids: number[]; positions: number[] } {
  const ids = Array.from({ length: count }, (_, index) => (index * 7919 + 11) % 151643);
  const positions = [1, 2, 3, 4].map((quarter) => Math.floor((quarter * count) / 4) - 1);
  return { ids, positions };
}

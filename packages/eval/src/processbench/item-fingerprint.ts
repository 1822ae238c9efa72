/** FNV-1a over UTF-16 code units, from a given offset basis. */
function fnv1a(text: string, basis: number): number {
  let hash = basis >>> 0;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * A 64-bit fingerprint (16 hex digits) of a solution's content (problem and steps, not its id),
 * so the same solution is recognised in two splits whatever they call it.
 */
export function itemFingerprint(problem: string, steps: readonly string[]): string {
  const text = `${problem}\u0000${steps.join('\u0001')}`;
  return fnv1a(text, 0x811c9dc5).toString(16).padStart(8, '0') + fnv1a(text, 0x050c5d1f).toString(16).padStart(8, '0');
}

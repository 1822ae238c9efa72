import { InvalidInputError } from '@reward-lens/spec';
import type { DomainCheck, DomainRecord } from './domain-check.js';

/**
 * A vocabulary check as plain data (in `calibration.json` under `domainCheck`): the token ids the
 * model's training text used, as `[first, end)` ranges, and the largest share of a record's tokens
 * that may lie outside them.
 */
export interface TokenDomainSpec {
  kind: 'tokens';
  /** Sorted, disjoint `[first, end)` ranges of token ids seen in training. */
  known: [number, number][];
  /** In [0, 1]: a record with a larger share of unknown tokens is outside the domain. */
  maxUnknownShare: number;
  /** What the ids were counted on, e.g. `20,000 organism training items`. */
  countedOn: string;
}

function invalid(message: string): InvalidInputError {
  return new InvalidInputError(message, { location: 'calibration.domainCheck' });
}

/** Checks a parsed `domainCheck` value; throws `InvalidInputError` naming the field. */
export function validateTokenDomainSpec(value: unknown): TokenDomainSpec {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('domainCheck must be an object');
  const spec = value as Record<string, unknown>;
  if (spec.kind !== 'tokens') throw invalid(`domainCheck.kind must be "tokens", got ${JSON.stringify(spec.kind)}`);
  if (!Array.isArray(spec.known)) throw invalid('domainCheck.known must be an array of [first, end) ranges');
  let previousEnd = -1;
  const known = spec.known.map((range, index): [number, number] => {
    if (!Array.isArray(range) || range.length !== 2 || !range.every((id) => Number.isSafeInteger(id) && id >= 0) || range[0] >= range[1])
      throw invalid(`domainCheck.known[${index}] must be [first, end) with 0 <= first < end, integers`);
    if (range[0] < previousEnd) throw invalid(`domainCheck.known[${index}] overlaps or precedes the range before it`);
    previousEnd = range[1];
    return [range[0], range[1]];
  });
  const share = spec.maxUnknownShare;
  if (typeof share !== 'number' || !(share >= 0 && share <= 1))
    throw invalid(`domainCheck.maxUnknownShare must be a number in [0, 1], got ${JSON.stringify(share)}`);
  if (typeof spec.countedOn !== 'string' || spec.countedOn === '') throw invalid('domainCheck.countedOn must be a non-empty string');
  return { kind: 'tokens', known, maxUnknownShare: share, countedOn: spec.countedOn };
}

/** The ids of `ids` as sorted `[first, end)` ranges. */
export function tokenRanges(ids: Iterable<number>): [number, number][] {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const id of sorted) {
    const last = ranges[ranges.length - 1];
    if (last !== undefined && last[1] === id) last[1] = id + 1;
    else ranges.push([id, id + 1]);
  }
  return ranges;
}

function isKnown(known: readonly [number, number][], id: number): boolean {
  let low = 0;
  let high = known.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const [first, end] = known[middle]!;
    if (id < first) high = middle - 1;
    else if (id >= end) low = middle + 1;
    else return true;
  }
  return false;
}

/** The share of a record's tokens whose ids are outside `spec.known`, with the counts. */
export function unknownTokenShare(spec: TokenDomainSpec, inputIds: Int32Array): { unknown: number; total: number } {
  let unknown = 0;
  for (const id of inputIds) if (!isKnown(spec.known, id)) unknown++;
  return { unknown, total: inputIds.length };
}

/** The vocabulary check a `TokenDomainSpec` describes. */
export function tokenDomainCheck(spec: TokenDomainSpec): DomainCheck {
  const checked = validateTokenDomainSpec(spec);
  return {
    name: 'vocabulary',
    check(record: DomainRecord): string | undefined {
      const { unknown, total } = unknownTokenShare(checked, record.inputIds);
      if (total === 0 || unknown / total <= checked.maxUnknownShare) return undefined;
      const percent = (100 * unknown) / total;
      return `${unknown} of ${total} tokens (${percent.toFixed(0)}%) are ones its training text never used (${checked.countedOn}; at most ${(100 * checked.maxUnknownShare).toFixed(0)}% allowed)`;
    },
  };
}

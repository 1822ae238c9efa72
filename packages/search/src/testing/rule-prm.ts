import {
  capabilitiesOf,
  createByteBpeTokenizer,
  ProcessRM,
  validateForwardRequest,
  type BackendV1,
  type CacheHandleV1,
  type ForwardRequestV1,
  type PrmTokenizer,
} from '@reward-lens/core';

/** Scores the text read so far (the problem and the steps up to the read position). */
export type TextRule = (textSoFar: string) => number;

class IdsCache implements CacheHandleV1 {
  readonly specificationVersion = 'v1' as const;
  private released = false;
  constructor(readonly ids: readonly number[]) {}
  get length(): number {
    return this.ids.length;
  }
  fork(): CacheHandleV1 {
    return new IdsCache(this.ids);
  }
  release(): void {
    this.released = true;
  }
  get isReleased(): boolean {
    return this.released;
  }
}

/**
 * A backend whose value head applies a rule to the decoded text up to each read position, with a
 * "cache" that holds the ids seen: a PRM whose every score is known in advance, for exact tests of
 * what is built on ProcessRM (search picks, votes, dense rewards). It fulfils BackendV1 (requests
 * are validated as every backend's are) and counts the tokens it was given.
 */
export function createRuleBackend(tokenizer: PrmTokenizer, rule: TextRule, maxPositions = 4096): BackendV1 & { tokensSeen: number; forwardCalls: number } {
  const backend = {
    specificationVersion: 'v1' as const,
    name: 'rule',
    capabilities: capabilitiesOf('SCORES', 'PREFIX_SCORES', 'STEP_SCORES'),
    precision: 'fp32' as const,
    supportsCache: true,
    info: {
      description: 'a rule applied to the decoded text',
      vocabSize: tokenizer.vocabSize,
      hiddenSize: 1,
      numLayers: 1,
      maxPositions,
      heads: [{ name: 'value', kind: 'value' as const, width: 1 }],
    },
    tokensSeen: 0,
    forwardCalls: 0,
    async doForward(request: ForwardRequestV1) {
      const realTokens = validateForwardRequest(backend, request);
      backend.forwardCalls++;
      const rows = Array.from({ length: request.batchSize }, (_, row) => {
        const past = request.past?.[row];
        if (past && (past as IdsCache).isReleased) throw new Error('a released cache was used');
        const own: number[] = [];
        for (let column = 0; column < request.sequenceLength; column++) {
          const index = row * request.sequenceLength + column;
          if (request.attentionMask[index] === 1) own.push(request.inputIds[index]!);
        }
        backend.tokensSeen += realTokens[row]!;
        return { pastIds: past ? (past as IdsCache).ids : [], own };
      });
      const reads = request.reads.map((read) => {
        if (read.kind !== 'head') throw new Error('the rule backend reads its value head only');
        return {
          width: 1,
          values: rows.map(({ pastIds, own }, row) =>
            Float32Array.from(read.positions[row]!, (position) => rule(tokenizer.decode([...pastIds, ...own.slice(0, position + 1)]))),
          ),
        };
      });
      return { reads, ...(request.returnCache ? { caches: rows.map(({ pastIds, own }) => new IdsCache([...pastIds, ...own])) } : {}) };
    },
    async dispose() {},
  };
  return backend;
}

/**
 * The arithmetic-checking rule: the last line's `a + b = c` (or `-`, `*`, `x`, `/`) holds: 0.9;
 * it does not: 0.1; a line without arithmetic: 0.5.
 */
export function arithmeticRule(textSoFar: string): number {
  const line = textSoFar.trimEnd().split('\n').at(-1) ?? '';
  const match = /(-?\d+(?:\.\d+)?)\s*([-+*x×/])\s*(-?\d+(?:\.\d+)?)\s*=\s*(-?\d+(?:\.\d+)?)/.exec(line);
  if (!match) return 0.5;
  const [a, b, c] = [Number(match[1]), Number(match[3]), Number(match[4])];
  const operator = match[2]!;
  const value = operator === '+' ? a + b : operator === '-' ? a - b : operator === '/' ? a / b : a * b;
  return Math.abs(value - c) < 1e-9 ? 0.9 : 0.1;
}

/** A ProcessRM over `createRuleBackend` with the byte-BPE tokenizer and the plain value recipe. */
export function createRulePrm(rule: TextRule = arithmeticRule): { prm: ProcessRM; backend: ReturnType<typeof createRuleBackend> } {
  const tokenizer = createByteBpeTokenizer();
  const backend = createRuleBackend(tokenizer, rule);
  return { prm: ProcessRM.fromBackend(backend, tokenizer, { notes: ['a rule-based PRM (test)'] }), backend };
}

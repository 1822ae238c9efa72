import { describe, expect, it } from 'vitest';
import { createRulePrm } from '../testing/rule-prm.js';
import { rerank } from './rerank.js';
import { rerankRecords } from './rerank-records.js';

async function* itemsOf<Item>(items: readonly Item[]): AsyncGenerator<Item> {
  yield* items;
}

describe('rerankRecords', () => {
  const { prm } = createRulePrm();
  const problem = 'What is 2 + 3?';
  const candidates = ['2 + 3 = 5\nThe answer is 5', '2 + 3 = 6\nThe answer is 6'];

  it("reranks each record as rerank does, judges the pick against the record's answer, and passes bad records on as errors", async () => {
    const outcomes = [];
    for await (const outcome of rerankRecords(
      prm,
      itemsOf([
        { label: 'line 1', value: { problem, candidates, answer: 5 } },
        { label: 'line 2', error: { code: 'INVALID_INPUT', message: 'invalid JSON' } },
        { label: 'line 3', value: { problem, candidates: [] } },
        { label: 'line 4', value: { problem, candidates } },
      ]),
      { method: 'best-of-n' },
    ))
      outcomes.push(outcome);
    const expected = await rerank(prm, problem, candidates, { method: 'best-of-n' });
    expect(outcomes[0]).toMatchObject({ item: { label: 'line 1' }, result: expected, correct: expected.answer === '5' });
    expect(outcomes[1]).toEqual({ item: expect.objectContaining({ label: 'line 2' }), error: { code: 'INVALID_INPUT', message: 'invalid JSON' } });
    expect(outcomes[2]).toMatchObject({ error: { code: 'INVALID_INPUT', message: '"candidates" must be a non-empty array of solutions' } });
    expect(outcomes[3]).toMatchObject({ result: expected });
    expect(outcomes[3]).not.toHaveProperty('correct');
  });
});

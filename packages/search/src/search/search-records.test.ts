import { describe, expect, it } from 'vitest';
import { createScriptedPolicy } from '../policy/scripted-policy.js';
import { createRulePrm } from '../testing/rule-prm.js';
import { search } from './search.js';
import { searchRecords } from './search-records.js';

async function* itemsOf<Item>(items: readonly Item[]): AsyncGenerator<Item> {
  yield* items;
}

describe('searchRecords', () => {
  const { prm } = createRulePrm();
  const problem = 'Compute 2 + 3.';
  const script = { '': ['2 + 3 = 5', '2 + 3 = 6'], '2 + 3 = 5': ['The answer is \\boxed{5}.'], '2 + 3 = 6': ['The answer is \\boxed{6}.'] };

  it("searches each problem as search does, judges the chosen answer against the record's, and passes bad records on as errors", async () => {
    const options = { strategy: 'best-of-n', n: 2 } as const;
    const outcomes = [];
    for await (const outcome of searchRecords(
      prm,
      createScriptedPolicy({ script }),
      itemsOf([
        { label: 'line 1', value: { problem, answer: 5 } },
        { label: 'line 2', value: { answer: 5 } },
        { label: 'line 3', error: { code: 'INVALID_INPUT', message: 'invalid JSON' } },
        { label: 'line 4', value: { problem, reference: '6' } },
      ]),
      options,
    ))
      outcomes.push(outcome);
    const expected = await search(prm, createScriptedPolicy({ script }), problem, options);
    const chosen = expected.solutions[expected.pick!]!;
    expect(outcomes[0]).toMatchObject({ item: { label: 'line 1' }, problem, result: { pick: expected.pick }, correct: chosen.answer === '5' });
    expect(outcomes[1]).toMatchObject({ error: { code: 'INVALID_INPUT', message: '"problem" must be a string' } });
    expect(outcomes[2]).toMatchObject({ error: { code: 'INVALID_INPUT', message: 'invalid JSON' } });
    expect(outcomes[3]).toMatchObject({ correct: chosen.answer === '6' });
  });
});

import '@reward-lens/backend-tiny/register';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidInputError } from '@reward-lens/core';
import { startCompletionsTestServer, type CompletionsTestServer } from '@reward-lens/remote/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPolicy } from './load-policy.js';
import { defaultPolicySettings } from './policy-settings.js';
import { PolicySpecError } from './policy-spec-error.js';
import { parsePolicySpec } from './policy-spec.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-search-load-policy-'));
afterAll(() => rm(root, { recursive: true, force: true }));

/** The error a promise rejects with. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('it did not reject');
}

describe('loadPolicy: a scripted policy (.json)', () => {
  it('reads the script and proposes its steps, cycling, ending where nothing is scripted', async () => {
    const path = join(root, 'script.json');
    await writeFile(path, JSON.stringify({ '': ['2 + 3 = 5.', 'The answer is 5.'], '2 + 3 = 5.': [{ text: 'The answer is 5.', end: 'eos', tokens: 7 }] }));
    const loaded = await loadPolicy(parsePolicySpec(path), defaultPolicySettings);
    expect(loaded.description).toBe(`the scripted policy in ${path}`);
    expect(loaded.policy.name).toBe(path);
    const [first, second, ended] = await loaded.policy.nextSteps([
      { problem: 'What is 2 + 3?', steps: [], count: 3, seed: 0 },
      { problem: 'What is 2 + 3?', steps: ['2 + 3 = 5.'], count: 1, seed: 0 },
      { problem: 'What is 2 + 3?', steps: ['The answer is 5.'], count: 1, seed: 0 },
    ]);
    // Tokens: whitespace-separated words, unless the script says.
    expect(first).toEqual([
      { text: '2 + 3 = 5.', tokens: 5, end: 'step' },
      { text: 'The answer is 5.', tokens: 4, end: 'step' },
      { text: '2 + 3 = 5.', tokens: 5, end: 'step' },
    ]);
    expect(second).toEqual([{ text: 'The answer is 5.', tokens: 7, end: 'eos' }]);
    expect(ended).toEqual([{ text: '', tokens: 0, end: 'eos' }]);
    await loaded.dispose();
  });

  it.each([
    ['an array', '[["a"]]', /a scripted policy is an object from a prefix/],
    ['a prefix whose next steps are no list', '{"": "a"}', /a scripted policy is an object from a prefix/],
    ['not JSON', '{"": [', /cannot read the scripted policy: /],
  ])('refuses %s: an InvalidInputError at its path', async (_, text, message) => {
    const path = join(root, `malformed-${text.length}.json`);
    await writeFile(path, text);
    const error = await rejection(loadPolicy(parsePolicySpec(path)));
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect(PolicySpecError.isInstance(error)).toBe(false);
    expect((error as InvalidInputError).location).toBe(path);
    expect((error as InvalidInputError).message).toMatch(message);
    expect((error as InvalidInputError).message.startsWith(`${path}: `)).toBe(true);
  });

  it('refuses a script that is not there, naming its path', async () => {
    const path = join(root, 'missing.json');
    const error = await rejection(loadPolicy(parsePolicySpec(path)));
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect((error as InvalidInputError).location).toBe(path);
    expect((error as InvalidInputError).message).toMatch(/cannot read the scripted policy: .*ENOENT/);
  });
});

describe('loadPolicy: named policies', () => {
  it("refuses a template or delimiter for the organism's policy (it writes its own layout)", async () => {
    for (const settings of [
      { ...defaultPolicySettings, template: '{problem}\n{steps}' },
      { ...defaultPolicySettings, delimiter: '\n\n' },
    ]) {
      const error = await rejection(loadPolicy(parsePolicySpec('organism'), settings));
      expect(PolicySpecError.isInstance(error)).toBe(true);
      expect((error as Error).message).toBe("the organism's policy writes one step per line after the problem: --template and --step-delimiter do not apply");
    }
  });

  it('the tiny policy is the seeded tiny language model, within the step budget', async () => {
    const loaded = await loadPolicy(parsePolicySpec('tiny'), { ...defaultPolicySettings, maxStepTokens: 3 });
    try {
      expect(loaded.policy.name).toBe('tiny');
      expect(loaded.description).toMatch(/seeded tiny language model/);
      const [proposals] = await loaded.policy.nextSteps([{ problem: 'What is 2 + 3?', steps: [], count: 2, seed: 1 }]);
      expect(proposals).toHaveLength(2);
      for (const proposal of proposals!) expect(proposal.tokens).toBeLessThanOrEqual(3);
    } finally {
      await loaded.dispose();
    }
  });
});

describe('loadPolicy: a completions server (URL)', () => {
  let server: CompletionsTestServer | undefined;
  afterAll(() => server?.close());

  it("prompts with the settings' template and delimiter, and samples as they say", async () => {
    server = await startCompletionsTestServer(() => ({ kind: 'complete', text: 'Step two.', stopReason: '|', completionTokens: 2 }));
    const loaded = await loadPolicy(parsePolicySpec(server.baseURL), {
      ...defaultPolicySettings,
      modelName: 'm',
      template: 'Q: {problem}\nA: {steps}',
      delimiter: '|',
      temperature: 0.5,
      retries: 0,
    });
    expect(loaded.description).toMatch(/^the completions server at http:\/\/127\.0\.0\.1:\d+/);
    const [proposals] = await loaded.policy.nextSteps([{ problem: '1 + 1?', steps: ['Step one.'], count: 1, seed: 3 }]);
    expect(proposals).toEqual([{ text: 'Step two.', tokens: 2, end: 'step' }]);
    expect(server.requests.map((request) => request.prompt)).toEqual(['Q: 1 + 1?\nA: Step one.|']);
    expect(server.requests[0]).toMatchObject({ model: 'm', temperature: 0.5, stop: ['|'] });
    await loaded.dispose();
  });
});

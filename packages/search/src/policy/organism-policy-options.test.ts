import { InvalidInputError } from '@reward-lens/core';
import { policyErrorKinds } from '@reward-lens/organism';
import { describe, expect, it } from 'vitest';
import { parseOrganismPolicyOptions } from './organism-policy-options.js';
import { PolicySpecError } from './policy-spec-error.js';

// The settings after `organism:` (moved from the CLI's organism-policy tests: the messages are the CLI's usage errors).

describe('parseOrganismPolicyOptions', () => {
  it("gives the policy's defaults (no options) for no settings", () => {
    expect(parseOrganismPolicyOptions(undefined)).toEqual({});
  });

  it('reads error, rescue and kinds', () => {
    expect(parseOrganismPolicyOptions('error=0.3,rescue=0.2,kinds=wrong-result+wrong-copy')).toEqual({
      errorProbability: 0.3,
      rescueProbability: 0.2,
      errorKinds: ['wrong-result', 'wrong-copy'],
    });
    expect(parseOrganismPolicyOptions('error=0')).toEqual({ errorProbability: 0 });
    expect(parseOrganismPolicyOptions('rescue=1,error=.5')).toEqual({ rescueProbability: 1, errorProbability: 0.5 });
    expect(parseOrganismPolicyOptions(`kinds=${policyErrorKinds.join('+')}`)).toEqual({ errorKinds: [...policyErrorKinds] });
  });

  it.each([
    ['error=2', /^organism's error must be a probability, 0 to 1, got "2"$/],
    ['error=-0.1', /organism's error must be a probability/],
    ['rescue=0x1', /^organism's rescue must be a probability, 0 to 1, got "0x1"$/],
    ['error=abc', /organism's error must be a probability/],
    ['speed=1', /^the organism policy takes error, rescue and kinds; got "speed"$/],
    ['kinds=wrong-result+typo', /^organism error kinds are .*; got typo$/],
    ['error', /^organism policy settings are key=value, comma-separated; got "error"$/],
    ['error=', /key=value/],
    ['error=0.1=0.2', /key=value/],
    ['error=0.1,', /key=value, comma-separated; got ""$/],
  ])('refuses %s with a PolicySpecError (an InvalidInputError)', (text, message) => {
    let thrown: unknown;
    try {
      parseOrganismPolicyOptions(text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PolicySpecError);
    expect(PolicySpecError.isInstance(thrown)).toBe(true);
    expect(InvalidInputError.isInstance(thrown)).toBe(true);
    expect((thrown as PolicySpecError).code).toBe('INVALID_INPUT');
    expect((thrown as PolicySpecError).message).toMatch(message);
  });

  it('PolicySpecError.isInstance tells it from other invalid-input errors', () => {
    expect(PolicySpecError.isInstance(new InvalidInputError('x'))).toBe(false);
    expect(PolicySpecError.isInstance(new PolicySpecError('x'))).toBe(true);
    expect(PolicySpecError.isInstance('x')).toBe(false);
  });
});

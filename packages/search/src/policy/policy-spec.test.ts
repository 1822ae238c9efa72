import { describe, expect, it } from 'vitest';
import { defaultPolicySettings } from './policy-settings.js';
import { PolicySpecError } from './policy-spec-error.js';
import { parsePolicySpec } from './policy-spec.js';

describe('parsePolicySpec', () => {
  it('a registered name, without settings', () => {
    expect(parsePolicySpec('tiny')).toMatchObject({ kind: 'named', name: 'tiny' });
    expect(parsePolicySpec('organism')).toMatchObject({ kind: 'named', name: 'organism' });
  });

  it('a registered name with settings: checked at once, and the loaded policy has them', async () => {
    const spec = parsePolicySpec('organism:error=0.2,rescue=0.1,kinds=wrong-result');
    expect(spec).toMatchObject({ kind: 'named', name: 'organism' });
    if (spec.kind !== 'named') throw new Error('not named');
    const loaded = await spec.load(defaultPolicySettings);
    expect(loaded.policy.name).toBe('organism(p=0.2, rho=0.1, kinds=wrong-result)');
    expect(loaded.description).toBe("the organism's policy (error probability 0.2, rescue probability 0.1, errors wrong-result)");
    await loaded.dispose();
  });

  it.each([
    ['tiny:x', 'the tiny policy takes no settings, got "x"'],
    ['tiny:', 'the tiny policy takes no settings, got ""'],
    ['organism:error=2', 'organism\'s error must be a probability, 0 to 1, got "2"'],
    ['organism:speed=1', 'the organism policy takes error, rescue and kinds; got "speed"'],
  ])('refuses %s before anything loads (a PolicySpecError)', (text, message) => {
    expect(() => parsePolicySpec(text)).toThrow(PolicySpecError);
    expect(() => parsePolicySpec(text)).toThrow(message);
  });

  it('an http(s) URL, whatever it holds after the scheme', () => {
    expect(parsePolicySpec('https://example.com/v1')).toEqual({ kind: 'url', url: 'https://example.com/v1' });
    expect(parsePolicySpec('http://127.0.0.1:8000/v1')).toEqual({ kind: 'url', url: 'http://127.0.0.1:8000/v1' });
    expect(parsePolicySpec('HTTPS://host/organism.json')).toEqual({ kind: 'url', url: 'HTTPS://host/organism.json' });
  });

  it('a .json path is a scripted policy', () => {
    expect(parsePolicySpec('policies/script.json')).toEqual({ kind: 'script', path: 'policies/script.json' });
    expect(parsePolicySpec('/tmp/Script.JSON')).toEqual({ kind: 'script', path: '/tmp/Script.JSON' });
    expect(parsePolicySpec('tiny.json')).toEqual({ kind: 'script', path: 'tiny.json' });
  });

  it('anything else is a model folder', () => {
    expect(parsePolicySpec('models/policy')).toEqual({ kind: 'folder', path: 'models/policy' });
    expect(parsePolicySpec('./tiny')).toEqual({ kind: 'folder', path: './tiny' });
    expect(parsePolicySpec('C:\\models\\policy')).toEqual({ kind: 'folder', path: 'C:\\models\\policy' });
  });
});

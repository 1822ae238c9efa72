import { describe, expect, it } from 'vitest';
import { Sampler, argmax } from './sampler.js';

describe('Sampler (llama2.c run.c semantics)', () => {
  const logits = Float32Array.from([0.1, 2.5, -1, 2.4, 0]);

  it('is greedy at temperature 0', () => {
    expect(new Sampler({ temperature: 0, topP: 0.9, seed: 1 }).sample(logits)).toBe(1);
    expect(argmax([3, 7, 7, 1])).toBe(1);
  });

  it('draws the same sequence for the same seed, another for another seed, and never sticks at seed 0', () => {
    const draws = (seed: number) => {
      const sampler = new Sampler({ temperature: 1.5, topP: 1, seed });
      return Array.from({ length: 64 }, () => sampler.sample(logits));
    };
    expect(draws(42)).toEqual(draws(42));
    expect(draws(42)).not.toEqual(draws(43));
    expect(new Set(draws(0)).size).toBeGreaterThan(1);
  });

  it('follows the distribution: frequencies close to softmax(logits / T)', () => {
    const sampler = new Sampler({ temperature: 1, topP: 1, seed: 7 });
    const counts = new Array<number>(logits.length).fill(0);
    const draws = 20_000;
    for (let index = 0; index < draws; index++) counts[sampler.sample(logits)]! += 1;
    const exps = Array.from(logits, (value) => Math.exp(value));
    const total = exps.reduce((sum, value) => sum + value, 0);
    exps.forEach((value, index) => expect(Math.abs(counts[index]! / draws - value / total)).toBeLessThan(0.015));
  });

  it('keeps only the nucleus with top-p', () => {
    // Tokens 1 and 3 hold ~0.83 of the mass: top-p 0.8 never draws 0, 2 or 4.
    const sampler = new Sampler({ temperature: 1, topP: 0.8, seed: 3 });
    const seen = new Set(Array.from({ length: 2000 }, () => sampler.sample(logits)));
    expect([...seen].sort()).toEqual([1, 3]);
  });

  it('reproduces run.c xorshift64* draws for seed 42', () => {
    // random_u32 for state 42 computed by hand from run.c's definition, first two values.
    let state = 42n;
    const mask = (1n << 64n) - 1n;
    const next = () => {
      state ^= state >> 12n;
      state = (state ^ (state << 25n)) & mask;
      state ^= state >> 27n;
      return Number(((state * 0x2545f4914f6cdd1dn) & mask) >> 32n);
    };
    const coins = [next(), next()].map((value) => Math.fround((value >>> 8) / 16777216));
    // With temperature 1 and no top-p, a draw is the first index whose cumulative probability exceeds the coin.
    const probabilities = Array.from(logits, (value) => Math.exp(value));
    const total = probabilities.reduce((sum, value) => sum + value, 0);
    const pick = (coin: number) => {
      let cumulative = 0;
      return probabilities.findIndex((value) => {
        cumulative += value / total;
        return cumulative > coin;
      });
    };
    const sampler = new Sampler({ temperature: 1, topP: 1, seed: 42 });
    expect([sampler.sample(logits), sampler.sample(logits)]).toEqual(coins.map(pick));
  });
});

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SequenceTooLongError } from '@reward-lens/spec';
import { plainValueRecipe, type ReadingRecipe } from '../recipes/reading-recipe.js';
import { qwen25MathPrmRecipe } from '../recipes/presets.js';
import { createByteBpeTokenizer } from '@reward-lens/tokenizers';
import { normalizeScoringInput } from './scoring-input.js';
import { tokenizePair, type TokenizedPair } from './tokenize-pair.js';

const tokenizer = createByteBpeTokenizer({ addedTokens: ['<extra_0>'] });
const tokenize = (steps: string[], maxPositions: number, truncation: 'none' | 'left', recipe: ReadingRecipe = plainValueRecipe) =>
  tokenizePair(tokenizer, recipe, normalizeScoringInput({ problem: 'Add them all up.', steps }, 'test'), { delimiter: '\n', maxPositions, truncation });

/** What left truncation of a whole-text tokenization keeps: the reference the windowed path must equal. */
function truncatedReference(whole: TokenizedPair, maxPositions: number) {
  const cut = whole.inputIds.length - maxPositions;
  return {
    inputIds: Array.from(whole.inputIds.slice(cut)),
    readPositions: whole.readPositions.map((position) => (position - cut < 0 ? -1 : position - cut)),
  };
}

describe('tokenizing long texts by the window, not by the input', () => {
  it('refuses a text certainly longer than the model before tokenizing it, with a lower bound', () => {
    const steps = Array.from({ length: 4000 }, (_, index) => `Step ${index}: add ${index} to the running total.`);
    const error = (() => {
      try {
        tokenize(steps, 64, 'none');
      } catch (caught) {
        return caught;
      }
    })();
    expect(SequenceTooLongError.isInstance(error)).toBe(true);
    expect((error as SequenceTooLongError).lengthIsLowerBound).toBe(true);
    expect((error as Error).message).toMatch(/^sequence of at least \d+ tokens \(\d+ characters\) is longer than the model's 64 positions/);
  });

  it('with left truncation, keeps exactly what a whole-text tokenization keeps (property, plain and tagged recipes)', () => {
    const step = fc.stringMatching(/^[a-z0-9 +=.é😀]{1,30}$/u).filter((text) => text.trim().length > 0);
    fc.assert(
      fc.property(fc.array(step, { minLength: 2, maxLength: 400 }), fc.constantFrom(plainValueRecipe, qwen25MathPrmRecipe), (steps, recipe) => {
        const maxPositions = 48;
        const windowed = tokenize(steps, maxPositions, 'left', recipe);
        const whole = tokenize(steps, 1_000_000, 'none', recipe);
        const expected = whole.inputIds.length > maxPositions ? truncatedReference(whole, maxPositions) : whole;
        expect(Array.from(windowed.inputIds)).toEqual(Array.from(expected.inputIds));
        expect(windowed.readPositions).toEqual(Array.from(expected.readPositions));
        expect(windowed.steps.map((item) => item.text)).toEqual(whole.steps.map((item) => item.text));
      }),
      { numRuns: 60 },
    );
  });

  it('scores a 25 MB solution in memory that follows the window, not the input (child process, peak RSS)', () => {
    const script = fileURLToPath(new URL('../../test/support/tokenization-window-memory-probe.ts', import.meta.url));
    const run = (truncation: string) =>
      spawnSync(process.execPath, ['--import', 'tsx', '--conditions=@reward-lens/source', script, truncation], {
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '' },
        timeout: 120_000,
      });
    for (const truncation of ['none', 'left']) {
      const result = run(truncation);
      expect(result.status, result.stderr).toBe(0);
      const report = JSON.parse(result.stdout.trim().split('\n').pop()!) as { outcome: string; peakRssMb: number; baselineRssMb: number };
      expect(report.outcome).toBe(truncation === 'none' ? 'SEQUENCE_TOO_LONG' : 'scored');
      // The 25 MB text itself is 50 MB of UTF-16; tokenizing it whole took gigabytes. Refused, it is
      // not even segmented (segmenting it first took 240 MB); kept, its million steps are listed.
      expect(report.peakRssMb - report.baselineRssMb).toBeLessThan(truncation === 'none' ? 50 : 400);
    }
  });
});

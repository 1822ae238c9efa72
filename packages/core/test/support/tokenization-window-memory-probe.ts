// Run by tokenization-window.test.ts in a child process: scores a 25 MB solution and prints the peak RSS.
import { memoryUsage } from 'node:process';
import { createByteBpeTokenizer } from '@reward-lens/tokenizers';
import { plainValueRecipe } from '../../src/recipes/reading-recipe.js';
import { normalizeScoringInput } from '../../src/process-rm/scoring-input.js';
import { tokenizePair } from '../../src/process-rm/tokenize-pair.js';

const truncation = process.argv[2] === 'left' ? 'left' : 'none';
const tokenizer = createByteBpeTokenizer();
tokenizer.encode('warm up');
let peak = 0;
const sample = () => {
  peak = Math.max(peak, memoryUsage.rss());
};
const timer = setInterval(sample, 5);
const lines: string[] = [];
for (let index = 0; lines.length * 40 < 25_000_000; index++) lines.push(`Step ${index}: add ${index % 97} to the running total.`);
const solution = lines.join('\n');
lines.length = 0;
sample();
const baseline = memoryUsage.rss();
let outcome = 'scored';
try {
  const pair = tokenizePair(tokenizer, plainValueRecipe, normalizeScoringInput(['Add them up.', solution], 'probe'), {
    delimiter: '\n',
    maxPositions: 4096,
    truncation,
  });
  if (pair.inputIds.length !== 4096) outcome = `kept ${pair.inputIds.length} tokens`;
} catch (error) {
  outcome = (error as { code?: string }).code ?? String(error);
}
sample();
clearInterval(timer);
process.stdout.write(`${JSON.stringify({ outcome, peakRssMb: peak / 2 ** 20, baselineRssMb: baseline / 2 ** 20 })}\n`);

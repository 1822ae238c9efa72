// Prints how long organism texts are in tokens at each knob setting: `pnpm --filter @reward-lens/organism lengths`.
// A text is the problem, a newline, and the steps one per line (what a PRM reads).
import { createOrganism, createOrganismTokenizer } from '../src/index.js';

const tokenizer = createOrganismTokenizer();
const sample = 400;
const stepCounts = [2, 3, 4, 6, 8, 10];
const maxNumbers = [10, 100, 1000];

function stats(values: number[]): { mean: number; p95: number; max: number } {
  const sorted = [...values].sort((left, right) => left - right);
  return {
    mean: values.reduce((sum, value) => sum + value, 0) / values.length,
    p95: sorted[Math.floor(0.95 * (sorted.length - 1))]!,
    max: sorted.at(-1)!,
  };
}

console.log(`tokens per text (problem + steps), ${sample} items per row, half of them with an error, distractors in 30% of problems`);
console.log('digit tokens: every digit is a token (createOrganismTokenizer); number tokens: a whole number counts as one\n');
console.log('| steps | max number | digit tokens: mean / p95 / max | of which steps | number tokens: mean / p95 / max |');
console.log('|---|---|---|---|---|');
for (const steps of stepCounts) {
  for (const maxNumber of maxNumbers) {
    const items = createOrganism({ seed: 0, steps: [steps, steps], maxNumber }).items(sample);
    const digitTokens: number[] = [];
    const stepTokens: number[] = [];
    const numberTokens: number[] = [];
    for (const item of items) {
      const text = `${item.problem}\n${item.steps.join('\n')}`;
      digitTokens.push(tokenizer.encode(text).ids.length);
      stepTokens.push(tokenizer.encode(item.steps.join('\n')).ids.length);
      numberTokens.push(text.replace(/\d+/g, '0').match(/\n|\d|[A-Za-z]+|[^\sA-Za-z\d]/g)!.length);
    }
    const [digits, inSteps, numbers] = [stats(digitTokens), stats(stepTokens), stats(numberTokens)];
    console.log(
      `| ${steps} | ${maxNumber} | ${digits.mean.toFixed(0)} / ${digits.p95} / ${digits.max} | ${inSteps.mean.toFixed(0)} | ${numbers.mean.toFixed(0)} / ${numbers.p95} / ${numbers.max} |`,
    );
  }
}
console.log(`\nvocabulary: ${tokenizer.vocabSize} tokens (4 special)`);

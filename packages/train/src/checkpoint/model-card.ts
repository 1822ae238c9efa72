import type { DecoderModel, ReadingRecipe } from '@reward-lens/core';
import type { TrainerState } from './trainer-state.js';

const format = (value: number, digits = 4) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

/** The README.md of a trained model: what it is, the data, the seed, the held-out metrics, how to load it. */
export function modelCard(model: DecoderModel, recipe: ReadingRecipe, state: TrainerState, title: string): string {
  const { config } = model;
  const parameters = [...model.tensors.values()].reduce((sum, tensor) => sum + tensor.length, 0);
  const last = state.evaluations.at(-1);
  const lines = [
    `# ${title}`,
    '',
    `A process reward model trained with \`@reward-lens/train\`: ${config.architecture}, hidden ${config.hiddenSize}, ${config.numLayers} layers, ` +
      `${config.numHeads} heads (${config.numKvHeads} key/value), vocabulary ${config.vocabSize}, ${parameters.toLocaleString('en-US')} parameters, float32. ` +
      `It is read with the recipe \`${recipe.name}\` (${recipe.description}).`,
    '',
    '## Training',
    '',
    `- data: ${state.data.training}`,
    `- held-out data: ${state.data.heldOut ?? 'none'}`,
    `- seed: ${state.random.seed}`,
    `- steps: ${state.step} of ${state.totalSteps}, ${state.tokensSeen.toLocaleString('en-US')} tokens, ${state.trainingSeconds.toFixed(0)} s of training`,
    `- loss: per-step binary cross-entropy at the step boundaries${state.hyperparameters.untilFirstError === false ? '' : ', steps counted up to the first error'}`,
    `- hyperparameters: ${Object.entries(state.hyperparameters)
      .map(([key, value]) => `${key} ${JSON.stringify(value)}`)
      .join(', ')}`,
    '',
    '## Held-out metrics',
    '',
  ];
  if (state.evaluations.length === 0) lines.push('No held-out evaluation was run.');
  else {
    lines.push(
      `At step ${last!.step}: loss ${format(last!.loss)}, ProcessBench F1 ${format(last!.f1, 3)} at threshold ${last!.threshold} ` +
        `(accuracy ${format(last!.errorAccuracy, 3)} on ${last!.erroneous} erroneous items, ${format(last!.correctAccuracy, 3)} on ${last!.correct} correct ones).`,
      '',
      '| step | held-out loss | F1 | accuracy (erroneous) | accuracy (correct) |',
      '|---:|---:|---:|---:|---:|',
      ...state.evaluations.map(
        (record) =>
          `| ${record.step} | ${format(record.loss)} | ${format(record.f1, 3)} | ${format(record.errorAccuracy, 3)} | ${format(record.correctAccuracy, 3)} |`,
      ),
    );
  }
  lines.push(
    '',
    '## Use',
    '',
    '```ts',
    "import { ProcessRM } from '@reward-lens/core';",
    "import '@reward-lens/backend-tiny/register';",
    '',
    `const prm = await ProcessRM.fromPretrained('path/to/this/folder'${recipe.name === 'trl-token-classification' ? '' : `, { recipe: '${recipe.name}' }`});`,
    '```',
    '',
  );
  if (state.notes.length > 0) lines.push('## Notes', '', ...state.notes.map((note) => `- ${note}`), '');
  return lines.join('\n');
}

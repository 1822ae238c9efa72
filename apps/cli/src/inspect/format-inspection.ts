import type { InspectData, StepAttribution, TokenAttribution } from '@reward-lens/eval';
import { escapeControlCharacters, oneLine, truncate, wrap } from '../text-layout.js';

const signed = (value: number, digits = 4) => (Number.isFinite(value) ? value.toFixed(digits) : String(value));

function tokenList(tokens: readonly TokenAttribution[], key: 'integratedGradients' | 'gradientTimesInput'): string {
  return tokens.map((token) => `${JSON.stringify(token.text)} ${signed(token[key])}`).join('  ');
}

function attributionLines(step: StepAttribution, width: number): string[] {
  const check = step.integration;
  return [
    truncate(
      `  step ${step.step + 1}  score ${signed(step.score)}  (IG sum ${signed(check.sum)}; score − baseline ${signed(check.scoreAtInput - check.scoreAtBaseline)})`,
      width,
    ),
    ...wrap(`    IG   ${tokenList(step.top.integratedGradients, 'integratedGradients')}`, width, '         ', { breakLongWords: true }),
    ...wrap(`    G×I  ${tokenList(step.top.gradientTimesInput, 'gradientTimesInput')}`, width, '         ', { breakLongWords: true }),
  ];
}

/**
 * What `reward-lens inspect` prints: the steps, the reward head read after every layer (a layer
 * × step table, the per-layer step curves), the top attributed tokens per step, the probe battery
 * when one ran, and the notes.
 */
export function formatInspection(data: InspectData, width: number): string {
  const lines: string[] = [truncate(`problem  ${oneLine(data.problem)}`, width)];
  const steps = data.summary.find((row) => row.label === 'steps')?.value ?? String(data.steps.length);
  lines.push(`steps    ${steps}`);
  data.steps.forEach((step, index) => lines.push(truncate(`  ${String(index + 1).padStart(2)}  ${oneLine(step.text)}`, width)));

  const { readout } = data;
  const cell = 9;
  lines.push('');
  lines.push(
    ...wrap(
      `reward head after every layer (${readout.scoreKind === 'probability' ? 'P(correct)' : 'raw score'} at each step; the last layer is the model's own step scores):`,
      width,
      '',
    ),
  );
  lines.push(`  ${'layer'.padStart(5)}${data.steps.map((_, index) => `step ${index + 1}`.padStart(cell)).join('')}`);
  readout.layers.forEach((layer, layerIndex) => {
    lines.push(`  ${String(layer).padStart(5)}${readout.scores[layerIndex]!.map((score) => signed(score).padStart(cell)).join('')}`);
  });

  if (data.attribution) {
    lines.push('');
    lines.push(
      ...wrap(
        `top tokens per step: integrated gradients (IG, ${data.attribution.integrationSteps} points from the ${data.attribution.baseline} baseline) and gradient × input (G×I):`,
        width,
        '',
      ),
    );
    for (const step of data.attribution.steps) lines.push(...attributionLines(step, width));
  }

  if (data.probes) {
    const { probes } = data;
    lines.push('');
    lines.push(
      ...wrap(
        `per-layer linear probes for step correctness (${probes.data}; fitted on ${probes.fitting.steps} steps, held out ${probes.heldOut.steps} steps of other solutions; majority ${(100 * probes.majorityAccuracy).toFixed(1)}%):`,
        width,
        '',
      ),
    );
    lines.push(`  ${'layer'.padStart(5)}  ${'probe acc'.padStart(9)}  ${'probe AUROC'.padStart(11)}  ${'head acc'.padStart(8)}  ${'head AUROC'.padStart(10)}`);
    for (const row of probes.layers) {
      lines.push(
        `  ${String(row.layer).padStart(5)}  ${`${(100 * row.probe.accuracy).toFixed(1)}%`.padStart(9)}  ${signed(row.probe.auroc, 3).padStart(11)}  ${`${(100 * row.head.accuracy).toFixed(1)}%`.padStart(8)}  ${signed(row.head.auroc, 3).padStart(10)}`,
      );
    }
  }
  lines.push('');
  for (const note of data.notes) lines.push(...wrap(`note: ${escapeControlCharacters(note)}`, width, '      '));
  return `${lines.join('\n')}\n`;
}

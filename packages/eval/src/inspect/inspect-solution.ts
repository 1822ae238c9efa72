import { hasCapability, type IntegrationBaseline, type ProcessRM, type ScoringInput } from '@reward-lens/core';
import type { ProbeBattery } from './correctness-probes.js';
import type { InspectData } from './inspect-data.js';
import { readoutByLayer } from './layer-readout.js';
import { attributeSteps } from './token-attribution.js';

export interface InspectOptions {
  /** Layers read (default every one that LINEAR_READOUT allows). */
  layers?: readonly number[];
  /** Integrated gradients' points (default 32) and baseline (default `'pad'`). */
  integrationSteps?: number;
  baseline?: IntegrationBaseline;
  /** Top tokens per step and method (default 5). */
  top?: number;
  /** A probe battery run on labelled data, shown beside the solution. */
  probes?: ProbeBattery & { data: string };
}

/**
 * One solution looked at from inside: the reward head read after every layer at each step (a
 * layer × step matrix whose last row is the model's step scores) and each step's score attributed
 * to the tokens before it (gradient × input and integrated gradients). What the model cannot give
 * is left out with a note: the inner layers without LINEAR_READOUT, attributions without GRADIENTS.
 *
 * @example
 * const data = await inspectSolution(prm, [problem, solution]);
 * await writeInspectPage('inspect.html', data); // @reward-lens/eval/node
 */
export async function inspectSolution(prm: ProcessRM, input: ScoringInput, options: InspectOptions = {}): Promise<InspectData> {
  const notes: string[] = [];
  const last = prm.backend.info.numLayers;
  let layers = options.layers;
  if (!hasCapability(prm.caps, 'LINEAR_READOUT')) {
    layers = [last];
    notes.push(`backend "${prm.backend.name}" has no LINEAR_READOUT: only the last layer is read`);
  }
  const readout = await readoutByLayer(prm, [input], layers ? { layers } : {});
  const [layered] = readout.value;
  notes.push(...readout.notes);
  const integrationSteps = options.integrationSteps ?? 32;
  const baseline = options.baseline ?? 'pad';
  let attribution: InspectData['attribution'] = null;
  if (hasCapability(prm.caps, 'GRADIENTS') && hasCapability(prm.caps, 'ACTIVATIONS')) {
    const explained = await attributeSteps(prm, input, { integrationSteps, baseline, ...(options.top !== undefined ? { top: options.top } : {}) });
    attribution = { integrationSteps, baseline, steps: explained.attributions };
  } else {
    notes.push(`backend "${prm.backend.name}" gives no gradients (GRADIENTS and ACTIVATIONS): no token attribution`);
  }
  const pair = await prm.segment(input);
  const meta = pair.meta;
  return {
    title: 'reward-lens inspect',
    summary: [
      { label: 'model', value: prm.backend.info.description },
      { label: 'recipe', value: prm.recipe.name },
      { label: 'steps', value: `${meta.nSteps} (${meta.stepMethod})` },
      { label: 'layers read', value: layered!.layers.join(', ') },
      ...(attribution ? [{ label: 'integrated gradients', value: `${integrationSteps} points, ${baseline} baseline` }] : []),
    ],
    notes: [...new Set(notes)],
    problem: 'problem' in input ? input.problem : (input as readonly [string, string])[0],
    text: pair.text,
    steps: pair.steps.map((step) => ({ text: step.text, charSpan: step.charSpan, readTokenIndex: step.readTokenIndex })),
    readout: { layers: layered!.layers, scores: layered!.scores, scoreKind: prm.recipe.activation === 'identity' ? 'raw' : 'probability' },
    attribution,
    ...(options.probes ? { probes: options.probes } : {}),
  };
}

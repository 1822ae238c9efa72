import type { CharSpan, IntegrationBaseline } from '@reward-lens/core';
import type { ProbeBattery } from './correctness-probes.js';
import type { StepAttribution } from './token-attribution.js';

/** Everything the inspect page (and `reward-lens inspect`) shows about one solution. */
export interface InspectData {
  title: string;
  /** Key facts shown first: model, recipe, steps and how they were found. */
  summary: { label: string; value: string }[];
  notes: string[];
  problem: string;
  /** The pair laid out as the model reads it. */
  text: string;
  steps: { text: string; charSpan: CharSpan; readTokenIndex: number }[];
  readout: {
    layers: number[];
    /** `scores[layerIndex][step]`. */
    scores: number[][];
    /** `probability` when the recipe's scores are probabilities, `raw` for a raw reward. */
    scoreKind: 'probability' | 'raw';
  };
  /** Token attribution per step, or null when the backend has no gradients (a note says so). */
  attribution: { integrationSteps: number; baseline: IntegrationBaseline; steps: StepAttribution[] } | null;
  /** The per-layer correctness probes, when labelled data was given. */
  probes?: ProbeBattery & { data: string };
}

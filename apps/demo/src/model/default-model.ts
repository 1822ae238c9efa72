import { ProcessRM } from '@reward-lens/core';
import { backendSettings } from './backend-settings.js';
import type { DemoModel } from './demo-model.js';

/**
 * The demo's default PRM, behind this one seam. Until `@reward-lens/model-default` (the trained
 * default PRM) is released, it is the seeded tiny model: the CLI's default model too (random
 * weights from seed 0, the byte-BPE tokenizer, a raw value head), so the page's numbers can be
 * checked against `reward-lens score`. When the trained model lands, this becomes its browser
 * loader over the model's files served with the app.
 */
export const defaultModel: DemoModel = {
  name: 'the seeded tiny PRM (seed 0)',
  caveat:
    "Random weights generated from seed 0, the CLI's default model: the segmentation and the reads at each step are exact, but the scores carry no meaning (raw value-head outputs, not probabilities).",
  load: (backend) => ProcessRM.fromTiny({ seed: 0, backend, backendSettings: backendSettings() }),
};

import { defaultModelFigures, defaultModelName, loadDefaultPrm } from '@reward-lens/model-default';
import { backendSettings } from './backend-settings.js';
import type { DemoModel } from './demo-model.js';

const { organismTest, processBenchGsm8k } = defaultModelFigures;

/**
 * The demo's default PRM, behind this one seam: `@reward-lens/model-default`, the small PRM trained
 * on the organism's word problems, with its calibration. Its weights are a static file of the
 * build (the package's `new URL(..., import.meta.url)`); the page fetches them once. Its window is
 * 512 positions and real solutions spell most words in characters, so a longer solution keeps its
 * end (`truncation: 'left'`, as `reward-lens score --truncation left`), and the notes say what was cut.
 */
export const defaultModel: DemoModel = {
  name: `the default PRM (${defaultModelName})`,
  caveat:
    `Trained on organism word problems (held-out ProcessBench F1 ${organismTest.f1.toFixed(2)}): it judges solutions written in the organism's language, ` +
    `and is close to chance on other text (ProcessBench GSM8K F1 ${processBenchGsm8k.f1.toFixed(2)}). Scores are calibrated probabilities that the solution is still right after each step.`,
  load: (backend, onProgress) => loadDefaultPrm({ backend, truncation: 'left', backendSettings: backendSettings(), ...(onProgress ? { onProgress } : {}) }),
};

import type { ProcessRM } from '@reward-lens/core';
import { meterProcessRM, type BackendMeter } from '@reward-lens/search';
import { loadProcessRM } from '../load-process-rm.js';
import { backendOptionHelp, parseModelChoice, threadsOptionHelp } from '../model-options.js';
import { UsageError } from '../usage-error.js';
import { stringOptions } from '../option-table.js';

/** The flags that choose the PRM of `search` and `rerank` (`--prm` is `score`'s `--model`). */
export const prmOptions = stringOptions('prm', 'model', 'recipe', 'backend', 'seed', 'threads');

export const prmOptionsHelp = `  --prm <folder>            the PRM: a Hugging Face-style model folder (config.json,
                            model.safetensors or model.onnx, tokenizer.json); --model is the
                            same flag; default: the default PRM (trained on organism word
                            problems, @reward-lens/model-default)
  --recipe <name>           how the PRM is read (reward-lens recipes lists them); default:
                            inferred from config.json's architecture
${backendOptionHelp}
${threadsOptionHelp}
  --seed <n>                the seeded tiny PRM instead: random weights from seed n (its scores
                            carry no meaning; not with --prm)`;

export interface LoadedPrm {
  prm: ProcessRM;
  /** Counts the tokens the PRM runs (for the search's exact scored-token counts). */
  meter: BackendMeter;
  dispose(): Promise<void>;
}

/** The PRM the flags name, over a metered backend. */
export async function loadPrm(
  values: { prm?: string; model?: string; recipe?: string; backend?: string; seed?: string; threads?: string },
  usage: string,
): Promise<LoadedPrm> {
  if (values.prm !== undefined && values.model !== undefined) throw new UsageError('give the PRM once: --prm or --model', usage);
  const choice = parseModelChoice({ ...values, ...(values.prm !== undefined ? { model: values.prm } : {}) }, usage);
  const base = await loadProcessRM(choice);
  // The CLI passes no delimiter, truncation or batch size of its own: the defaults carry over unchanged.
  const { prm, meter } = meterProcessRM(base);
  return { prm, meter, dispose: () => base.dispose() };
}

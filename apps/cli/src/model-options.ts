import { availableParallelism } from 'node:os';
import { weightDtypes, type WeightDtypeV1 } from '@reward-lens/core';
import { defaultBackend, recipeNames, type ModelSettings } from './load-process-rm.js';
import { parseIntegerOption, seedRange } from './parse-integer-option.js';
import { UsageError } from './usage-error.js';
import { stringOptions } from './option-table.js';
import { parseChoiceOption } from './parse-choice-option.js';

/** The flags that choose a PRM, shared by the commands that load one (`score`, `caps`). */
export const modelOptions = stringOptions('model', 'recipe', 'backend', 'seed', 'threads', 'dtype');

/** `--dtype` in every help that has it. */
export const dtypeOptionHelp = `  --dtype <type>            how the weights are held: fp32 (default); bf16 or fp16 (2 bytes a
                            weight), q8 or q4 (about 1 and 0.6), made as they are read
                            (backend-tiny); scores differ a little from fp32's, the notes say so`;

/** \`--dtype\`, checked: one of the weight dtypes. */
export function parseDtypeOption(text: string | undefined, usage: string): WeightDtypeV1 | undefined {
  return parseChoiceOption('--dtype', text, weightDtypes, usage);
}

/** `--threads` in every help that has it. */
export const threadsOptionHelp = `  --threads <n>             CPU threads to compute on, whatever the backend: backend-tiny's
                            worker threads, onnxruntime's intra-op threads (default: every
                            core, ${availableParallelism()} here); results are the same for any count`;

/** `--threads`, checked: a whole number of threads from 1 to 1024. */
export function parseThreadsOption(text: string | undefined, usage: string): number | undefined {
  return parseIntegerOption('--threads', text, { minimum: 1, maximum: 1024 }, usage);
}

/** `--backend` in every help that has it. */
export const backendOptionHelp = `  --backend <name>          webgpu, onnx-node, onnx-web, tiny or auto: auto takes the
                            highest-priority backend that can run the model (webgpu only on a
                            hardware adapter; named, webgpu also runs on SwiftShader); the
                            notes say which ran and why others were skipped (default: auto
                            with --model, else tiny)`;

/** The same flags in every command's help. */
export const modelOptionsHelp = `  --model <folder>          a Hugging Face-style model folder (config.json, model.safetensors
                            or model.onnx, tokenizer.json); default: the default PRM, trained on
                            organism word problems (@reward-lens/model-default)
  --recipe <name>           how the model is read (reward-lens recipes lists them); default:
                            inferred from config.json's architecture
${backendOptionHelp}
${threadsOptionHelp}
${dtypeOptionHelp}
  --seed <n>                the seeded tiny model instead: random weights from seed n, the same
                            on every machine (its scores carry no meaning; for tests; not with
                            --model)`;

type ModelChoice = Pick<ModelSettings, 'model' | 'recipe' | 'backend' | 'seed' | 'threads' | 'dtype'>;

/** The model flags as settings. An unknown recipe is caught here, before anything loads. */
export function parseModelChoice(
  values: { model?: string; recipe?: string; backend?: string; seed?: string; threads?: string; dtype?: string },
  usage: string,
): ModelChoice {
  parseChoiceOption('--recipe', values.recipe, recipeNames(), usage);
  // A folder's weights are its own: a seed would be silently ignored.
  if (values.model !== undefined && values.seed !== undefined)
    throw new UsageError("--seed picks the seeded tiny model's weights; it has no use with --model", usage);
  if (values.model === '') throw new UsageError('--model must name a folder', usage);
  return {
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(values.recipe !== undefined ? { recipe: values.recipe } : {}),
    backend: values.backend ?? defaultBackend(values.model),
    ...(values.seed !== undefined ? { seed: parseIntegerOption('--seed', values.seed, seedRange, usage) } : {}),
    ...(values.threads !== undefined ? { threads: parseThreadsOption(values.threads, usage)! } : {}),
    ...(values.dtype !== undefined ? { dtype: parseDtypeOption(values.dtype, usage)! } : {}),
  };
}

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inferRecipe, ModelLoadError, resolveRecipe, type HeadSpec } from '@reward-lens/core';
import { recipeNames } from '../load-process-rm.js';

/** The model folder `export onnx` reads: its parsed `config.json`, and the heads to export. */
export interface ExportSource {
  config: Record<string, unknown>;
  heads: HeadSpec[];
  /** Where the heads came from, for the report: `the heads recipe "math-shepherd" reads`, `the LM head of a LlamaForCausalLM`. */
  headsFrom: string;
}

async function readConfig(folder: string): Promise<Record<string, unknown>> {
  let entries: string[];
  try {
    entries = (await readdir(folder)).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'folder not found' : code === 'ENOTDIR' ? 'not a folder' : `cannot list the folder (${code ?? String(error)})`;
    throw new ModelLoadError(reason, { file: folder, cause: error });
  }
  const path = join(folder, 'config.json');
  if (!entries.includes('config.json')) throw new ModelLoadError(`file not found; the folder holds: ${entries.join(', ') || 'nothing'}`, { file: path });
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new ModelLoadError(`not valid JSON (${(error as Error).message})`, { file: path, cause: error });
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new ModelLoadError('the config is not a JSON object', { file: path });
  return json as Record<string, unknown>;
}

/**
 * The heads to export: the recipe's when one is named; else those of the recipe `config.json`
 * implies, inferred as `fromPretrained` infers it (`*ForTokenClassification`,
 * `*ForSequenceClassification`, `Qwen2ForProcessRewardModel`); else a plain causal LM's LM head.
 * For any other architecture the CLI does not guess the head's weights and kind: it asks for the recipe.
 */
export async function readExportSource(folder: string, recipe: string | undefined): Promise<ExportSource> {
  const config = await readConfig(folder);
  if (recipe !== undefined) return { config, heads: resolveRecipe(recipe).heads, headsFrom: `the heads recipe "${recipe}" reads` };
  const architectures = config.architectures;
  const architecture = Array.isArray(architectures) && typeof architectures[0] === 'string' ? architectures[0] : undefined;
  const inferred = inferRecipe(config);
  if (inferred !== undefined) {
    return { config, heads: inferred.heads, headsFrom: `the heads recipe "${inferred.name}" reads (inferred from config.json's architecture ${architecture})` };
  }
  if (architecture?.endsWith('ForCausalLM') === true) return { config, heads: [{ name: 'lm', kind: 'lm' }], headsFrom: `the LM head of a ${architecture}` };
  const what = architecture === undefined ? 'names no architecture' : `says the architecture is ${architecture}, not a *ForCausalLM`;
  throw new ModelLoadError(
    `${what}, so which heads to export is not known; pass --recipe <name>, one of: ${recipeNames().join(', ')} (reward-lens recipes describes them)`,
    {
      file: join(folder, 'config.json'),
    },
  );
}

import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createHfTokenizer,
  ModelLoadError,
  ProcessRM,
  readsWeightsOverGraph,
  resolveBackend,
  type BackendV1,
  type ModelSource,
  type PrmTokenizer,
} from '@reward-lens/core';
import { findOnnxGraph, loadDecoderFolder, readTokenizerPath } from '@reward-lens/core/node';
import { requireBackendPackage } from './register-backends.js';

/** A causal language model ready for `generate`: its backend, tokenizer, and the notes of its load. */
export interface LanguageModel {
  backend: BackendV1;
  tokenizer: PrmTokenizer;
  notes: readonly string[];
  dispose(): Promise<void>;
}

const lmHead = { name: 'lm', kind: 'lm' } as const;

interface FolderContents {
  source: ModelSource;
  tokenizerJson: unknown;
  tokenizerConfig: unknown;
  notes: readonly string[];
}

/** An ONNX folder (what `reward-lens export onnx` writes): the backend reads config.json beside the graph itself. */
async function readOnnxFolder(folder: string, graph: string): Promise<FolderContents> {
  const { tokenizerJson, tokenizerConfig } = await readTokenizerPath(folder);
  return { source: { kind: 'onnx', path: graph, description: `the ONNX graph ${graph}` }, tokenizerJson, tokenizerConfig, notes: [] };
}

/** A safetensors folder, read as a plain causal LM: its LM head only, whatever PRM heads it also has. */
async function readDecoderFolder(folder: string): Promise<FolderContents> {
  const loaded = await loadDecoderFolder(folder, { heads: [lmHead] });
  return {
    source: { kind: 'decoder', model: loaded.model, description: `the weights in ${folder}` },
    tokenizerJson: loaded.tokenizerJson,
    tokenizerConfig: loaded.tokenizerConfig ?? undefined,
    notes: loaded.notes,
  };
}

async function holdsWeights(folder: string): Promise<boolean> {
  const entries = await readdir(folder);
  return entries.includes('model.safetensors') || entries.includes('model.safetensors.index.json');
}

/** What generation needs of a backend that a folder's graph may lack (an export without the LM head or the cache). */
function checkGenerationFits(backend: BackendV1, tokenizer: PrmTokenizer, folder: string, file: string): void {
  if (tokenizer.vocabSize > backend.info.vocabSize) {
    throw new ModelLoadError(`the tokenizer has ${tokenizer.vocabSize} tokens but the model only ${backend.info.vocabSize}: they do not belong together`, {
      file: `${folder}/tokenizer.json`,
    });
  }
  if (!backend.info.heads.some((head) => head.name === lmHead.name && head.kind === 'lm')) {
    const heads = backend.info.heads.map((head) => `${head.name} (${head.kind})`).join(', ') || 'none';
    throw new ModelLoadError(
      `generate needs an LM head named "lm", and this model has none (its heads: ${heads}); export a causal LM, or name a recipe with an LM head`,
      { file },
    );
  }
  if (!backend.supportsCache) {
    throw new ModelLoadError(
      `generate needs a KV cache, and backend "${backend.name}" has none for this model (an ONNX graph exported with --no-past has no past_key_values inputs)`,
      { file },
    );
  }
}

/**
 * A model folder read as a plain causal LM (an ONNX graph when the folder holds `model.onnx`,
 * else the safetensors weights' LM head), or the seeded tiny model, whose config has an LM head
 * beside its reward heads.
 */
export async function loadLanguageModel(settings: { model?: string; backend: string; threads?: number }): Promise<LanguageModel> {
  await requireBackendPackage(settings.backend);
  const threads = settings.threads !== undefined ? { threads: settings.threads } : {};
  if (settings.model === undefined) {
    const prm = await ProcessRM.fromTiny({ backend: settings.backend, ...threads });
    return { backend: prm.backend, tokenizer: prm.tokenizer, notes: prm.notes, dispose: () => prm.dispose() };
  }
  const folder = settings.model;
  const found = await findOnnxGraph(folder);
  // A folder holding both a graph and weights: a backend named that runs weights only reads the weights.
  const graph = found !== undefined && readsWeightsOverGraph(settings.backend) && (await holdsWeights(folder)) ? undefined : found;
  const contents = graph !== undefined ? await readOnnxFolder(folder, graph) : await readDecoderFolder(folder);
  const tokenizer = createHfTokenizer(contents.tokenizerJson, contents.tokenizerConfig, {
    name: `${folder}/tokenizer.json`,
    files: { tokenizerJson: join(folder, 'tokenizer.json'), tokenizerConfig: join(folder, 'tokenizer_config.json') },
  });
  const resolved = await resolveBackend(settings.backend, contents.source, threads);
  try {
    checkGenerationFits(resolved.backend, tokenizer, folder, graph ?? folder);
  } catch (error) {
    await resolved.backend.dispose();
    throw error;
  }
  return { backend: resolved.backend, tokenizer, notes: [...resolved.notes, ...contents.notes], dispose: () => resolved.backend.dispose() };
}

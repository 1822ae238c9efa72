import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import {
  decoderConfigToHf,
  expectedTensorShapes,
  ModelLoadError,
  parseSafetensors,
  serializeSafetensors,
  type DecoderModel,
  type ReadingRecipe,
} from '@reward-lens/core';
import { loadDecoderFolder, writeDecoderFolder } from '@reward-lens/core/node';
import type { AdamWState } from '../optim/adamw.js';
import { architectureFields } from './hf-architecture.js';
import type { TrainerState } from './trainer-state.js';
import { validateTrainerState } from './validate-trainer-state.js';

export interface ModelFolderContents {
  model: DecoderModel;
  tokenizerJson: unknown;
  tokenizerConfig?: unknown;
  recipe: ReadingRecipe;
  /** The README.md. */
  modelCard: string;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** `sha256:<hex>` of a file's bytes. */
async function fileDigest(path: string): Promise<string> {
  return `sha256:${createHash('sha256')
    .update(await readFile(path))
    .digest('hex')}`;
}

/**
 * Writes a Hugging Face folder: config.json (with the architecture, labels and recipe that say
 * how the model is read), model.safetensors, tokenizer.json, tokenizer_config.json, README.md.
 */
export async function writeModelFolder(folder: string, contents: ModelFolderContents): Promise<void> {
  const { model, recipe } = contents;
  await writeDecoderFolder(folder, {
    model,
    tokenizerJson: contents.tokenizerJson,
    ...(contents.tokenizerConfig !== undefined && contents.tokenizerConfig !== null ? { tokenizerConfig: contents.tokenizerConfig } : {}),
  });
  await writeFile(join(folder, 'config.json'), json({ ...decoderConfigToHf(model.config), ...architectureFields(model.config, recipe) }));
  await writeFile(join(folder, 'README.md'), contents.modelCard);
}

/**
 * Writes a resumable checkpoint: the model folder plus optimizer.safetensors (the AdamW
 * moments, `first.<tensor>` and `second.<tensor>`) and trainer_state.json. Written beside the
 * target and renamed into place, so a run killed while writing leaves the previous checkpoint
 * whole and no half-written one.
 */
export async function writeCheckpoint(folder: string, contents: ModelFolderContents, optimizer: AdamWState, state: TrainerState): Promise<void> {
  const partial = `${folder}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  await writeModelFolder(partial, contents);
  const moments = new Map<string, { shape: number[]; data: Float32Array }>();
  const shapes = expectedTensorShapes(contents.model.config);
  for (const [name, data] of optimizer.firstMoments) moments.set(`first.${name}`, { shape: shapes.get(name)!, data });
  for (const [name, data] of optimizer.secondMoments) moments.set(`second.${name}`, { shape: shapes.get(name)!, data });
  await writeFile(join(partial, 'optimizer.safetensors'), serializeSafetensors(moments, { optimizer: 'adamw', step: String(optimizer.step) }));
  // Every file's digest, so a flipped bit is found when the checkpoint is read, not trained on.
  const checksums: Record<string, string> = {};
  for (const name of (await readdir(partial)).sort()) checksums[name] = await fileDigest(join(partial, name));
  await writeFile(join(partial, 'trainer_state.json'), json({ ...state, checksums }));
  await rm(folder, { recursive: true, force: true });
  await rename(partial, folder);
}

export interface Checkpoint {
  folder: string;
  model: DecoderModel;
  tokenizerJson: unknown;
  tokenizerConfig: unknown | null;
  optimizer: AdamWState;
  state: TrainerState;
}

/** Reads a checkpoint written by `writeCheckpoint`. */
export async function readCheckpoint(folder: string, recipe: ReadingRecipe): Promise<Checkpoint> {
  const optimizerFile = join(folder, 'optimizer.safetensors');
  const stateFile = join(folder, 'trainer_state.json');
  let moments: ReturnType<typeof parseSafetensors>;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(stateFile, 'utf8'));
  } catch (error) {
    throw new ModelLoadError(`is not a resumable checkpoint (${(error as Error).message})`, { file: folder, cause: error });
  }
  const folderStep = checkpointName.exec(basename(folder));
  const state = validateTrainerState(parsed, stateFile, folderStep ? Number(folderStep[1]) : undefined);
  for (const [name, expected] of Object.entries(state.checksums ?? {})) {
    const actual = await fileDigest(join(folder, name)).catch(() => 'missing');
    if (actual !== expected) {
      throw new ModelLoadError(
        actual === 'missing'
          ? 'is missing, though its checkpoint recorded it'
          : `does not match the checksum its checkpoint recorded (${expected.slice(0, 19)}…, now ${actual.slice(0, 19)}…): the file changed or is corrupt, and is not trained on`,
        { file: join(folder, name) },
      );
    }
  }
  // Loaded only once every file matches its recorded digest.
  const loaded = await loadDecoderFolder(folder, { heads: recipe.heads });
  try {
    moments = parseSafetensors(await readFile(optimizerFile), optimizerFile);
  } catch (error) {
    if (ModelLoadError.isInstance(error)) throw error;
    throw new ModelLoadError(`is not a resumable checkpoint (${(error as Error).message})`, { file: folder, cause: error });
  }
  const firstMoments = new Map<string, Float32Array>();
  const secondMoments = new Map<string, Float32Array>();
  for (const [name, tensor] of moments) {
    if (name.startsWith('first.')) firstMoments.set(name.slice(6), tensor.data);
    else if (name.startsWith('second.')) secondMoments.set(name.slice(7), tensor.data);
  }
  return {
    folder,
    model: loaded.model,
    tokenizerJson: loaded.tokenizerJson,
    tokenizerConfig: loaded.tokenizerConfig,
    optimizer: { step: state.step, firstMoments, secondMoments },
    state,
  };
}

const checkpointName = /^step-(\d+)$/;

export const checkpointFolderName = (step: number) => `step-${String(step).padStart(6, '0')}`;

/** The complete checkpoints under `<out>/checkpoints`, oldest first. */
export async function listCheckpoints(out: string): Promise<{ step: number; folder: string }[]> {
  const root = join(out, 'checkpoints');
  let entries: string[];
  try {
    entries = await readdir(root);
  } catch {
    return [];
  }
  const found: { step: number; folder: string }[] = [];
  for (const entry of entries) {
    const match = checkpointName.exec(entry);
    if (!match) continue;
    const files = await readdir(join(root, entry)).catch((): string[] => []);
    if (files.includes('trainer_state.json') && files.includes('optimizer.safetensors')) found.push({ step: Number(match[1]), folder: join(root, entry) });
  }
  return found.sort((left, right) => left.step - right.step);
}

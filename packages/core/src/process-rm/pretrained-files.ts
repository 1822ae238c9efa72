import {
  type DecoderFolderSource,
  type ModelSource,
  type OnnxModelSource,
  ModelLoadError,
  type HeadSpec,
  takesWeightArena,
  type WeightDtypeV1,
} from '@reward-lens/spec';
import { createWeightArena } from '@reward-lens/spec/internal';

import {
  chooseOnnxGraph,
  chooseOnnxGraphOf,
  loadDecoderFiles,
  readJsonFile,
  readTokenizerFiles,
  readWholeFile,
  requireEntry,
  type DecoderConfigFromHfOptions,
  type DecoderFilesOptions,
  type ModelFiles,
} from '@reward-lens/loaders';
import type { StepCalibration } from '../calibration/step-calibration.js';
import { readFolderCalibration } from './folder-calibration.js';
import { stepDetectorFileName, validateStepDetector, type StepDetector } from '../step-detection/step-detector.js';

/* Browser-safe: what a PRM folder holds, read through `ModelFiles` (a folder on disk, picked files, bytes). */

export interface PretrainedFolder {
  source: ModelSource;
  tokenizerJson: unknown;
  tokenizerConfig: unknown | null;
  /** The model's vocabulary size from config.json. */
  vocabSize: number;
  /** The folder's `step-detector.json`, when it has one. */
  stepDetector?: StepDetector;
  /** The folder's `calibration.json`, when it has one. */
  calibration?: StepCalibration;
  notes: string[];
}

/** Which of a folder's files to read when it holds both a graph and weights (see `readsWeightsOverGraph`). */
export interface FolderChoice {
  /** The backend asked for by name, which runs weights and not graphs: read the weights. */
  preferWeights: boolean;
  /** Its name, for the note. */
  backend: string;
  /**
   * How the backend is to hold the weights: other than `fp32`, each planned matrix is rounded or
   * quantized as it is read, and the folder's safetensors are read rather than its float32 ONNX
   * graph (a graph cannot be reduced at load).
   */
  dtype?: WeightDtypeV1;
  /**
   * The named backend reads weights folders itself (`readsDecoderFolders`): a folder on disk
   * holding weights and no graph is handed over unread, so that this process never holds them.
   */
  readsFolder?: boolean;
}

const weightFiles = ['model.safetensors', 'model.safetensors.index.json'];

/** External weights beside an ONNX graph (`model.onnx_data`, Optimum's `model.onnx.data`). */
const externalDataFile = /\.onnx[._]data$/;

/**
 * Reads what a PRM folder holds: an ONNX graph (see `chooseOnnxGraph`: the read-positions graph
 * of an export, `model.onnx` or `onnx/model.onnx`) when there is one, else the safetensors
 * weights; the tokenizer files either way. When the folder holds both, the graph is read unless
 * `choice.preferWeights` (the named backend runs weights only); a note says which was read.
 * Nothing is executed. A graph on disk is handed to the backend by its path (once opened, so a
 * FIFO or a directory in its place is a typed error, not a hang in onnxruntime); a graph in
 * memory by its bytes, with the text of its `config.json`.
 */
export async function readPretrainedFiles(
  files: ModelFiles,
  heads: HeadSpec[],
  options: DecoderConfigFromHfOptions & Pick<DecoderFilesOptions, 'onProgress' | 'signal'> = {},
  choice: FolderChoice = { preferWeights: false, backend: 'auto' },
): Promise<PretrainedFolder> {
  const entries = await files.list();
  const stepDetector = await readStepDetector(files, entries);
  const calibration = await readFolderCalibration(files, entries);
  const detectorFields = { ...(stepDetector ? { stepDetector } : {}), ...(calibration ? { calibration } : {}) };
  const detectorNotes = stepDetector ? [`found ${stepDetectorFileName}: learned step detector "${stepDetector.name}"`] : [];
  // The graph of the asked dtype (`onnx/model_q4.onnx` for q4), as transformers.js picks it; under a reduced dtype without one, the weights are reduced as they are read.
  const chosen = await chooseOnnxGraphOf(files, choice.dtype);
  const graph = chosen?.name;
  const hasWeights = entries.some((entry) => weightFiles.includes(entry));
  const quantized = choice.dtype !== undefined && choice.dtype !== 'fp32';
  const floatGraph = quantized && graph === undefined ? await chooseOnnxGraph(files) : undefined;
  if (quantized && graph === undefined && !hasWeights && floatGraph !== undefined) {
    throw new ModelLoadError(
      `the folder has no ${choice.dtype} graph (onnx/model${choice.dtype === 'q8' ? '_quantized' : `_${choice.dtype}`}.onnx) and no safetensors weights to make one from: only ${files.describe(floatGraph)}, float32 (load it with dtype 'fp32', or export it with reward-lens export onnx --dtype ${choice.dtype})`,
      { file: files.location },
    );
  }
  if (graph !== undefined && !(choice.preferWeights && hasWeights)) {
    const config = await readJsonFile(files, requireEntry(files, 'config.json', entries));
    if (!entries.includes('tokenizer.json')) {
      throw new ModelLoadError(`tokenizer.json is missing beside ${files.describe(graph)} (the folder holds: ${entries.join(', ')})`, { file: files.location });
    }
    const { tokenizerJson, tokenizerConfig } = await readTokenizerFiles(files, entries);
    return {
      source: await onnxSource(files, graph, entries, config, chosen!.dtype),
      tokenizerJson,
      tokenizerConfig,
      vocabSize: Number((config as { vocab_size?: unknown }).vocab_size),
      ...detectorFields,
      // The backend's own note names the graph it ran; this one is for the weights beside it, when there are any.
      notes: [
        ...(hasWeights
          ? [`found ${files.describe(graph)}: the ONNX graph is run, not the safetensors weights (a backend named that runs weights, such as tiny, reads them)`]
          : []),
        ...detectorNotes,
      ],
    };
  }
  const folder = choice.readsFolder === true && hasWeights ? files.localPath?.('.') : undefined;
  if (folder !== undefined) {
    const config = await readJsonFile(files, requireEntry(files, 'config.json', entries));
    const { tokenizerJson, tokenizerConfig } = await readTokenizerFiles(files, entries);
    const source: DecoderFolderSource = {
      kind: 'decoder-folder',
      folder,
      heads,
      description: `the weights in ${files.location}`,
      ...(choice.dtype ? { dtype: choice.dtype } : {}),
      ...(options.slidingWindow ? { slidingWindow: options.slidingWindow } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    };
    const floatNote =
      floatGraph === undefined
        ? []
        : [`dtype ${choice.dtype} is made from the safetensors weights: they are read, not the float32 graph ${files.describe(floatGraph)}`];
    return {
      source,
      tokenizerJson,
      tokenizerConfig,
      vocabSize: Number((config as { vocab_size?: unknown }).vocab_size),
      ...detectorFields,
      notes: [...floatNote, ...detectorNotes],
    };
  }
  // Read into a weight arena (where the platform has one) when the backend they go to takes it:
  // backend-tiny runs them where they lie, held once, never copied. Any other backend gets plain
  // arrays, so that a view it keeps (a head's weights) does not keep the whole arena alive.
  const arena = takesWeightArena(choice.backend, choice.dtype) ? createWeightArena() : undefined;
  const loaded = await loadDecoderFiles(files, {
    heads,
    ...options,
    // Quantized as they are read: the float32 model is never held whole.
    ...(quantized ? { dtype: choice.dtype } : {}),
    ...(arena ? { allocate: (count: number) => arena.allocate(count), allocateBytes: (bytes: number) => arena.allocateBytes(bytes) } : {}),
  });
  if (graph !== undefined) {
    loaded.notes.unshift(`backend "${choice.backend}" runs weights, not ONNX graphs: the safetensors weights are read, not ${files.describe(graph)}`);
  } else if (floatGraph !== undefined) {
    loaded.notes.unshift(
      `dtype ${choice.dtype} is made from the safetensors weights as they are read: they are read, not the float32 graph ${files.describe(floatGraph)}`,
    );
  }
  return {
    source: { kind: 'decoder', model: loaded.model, description: `the weights in ${files.location}` },
    tokenizerJson: loaded.tokenizerJson,
    tokenizerConfig: loaded.tokenizerConfig,
    vocabSize: loaded.model.config.vocabSize,
    ...detectorFields,
    notes: [...loaded.notes, ...detectorNotes],
  };
}

/** The folder's learned step-boundary detector, checked, or undefined when it has none. A malformed one is a `ModelLoadError` naming the file. */
async function readStepDetector(files: ModelFiles, entries: readonly string[]): Promise<StepDetector | undefined> {
  if (!entries.includes(stepDetectorFileName)) return undefined;
  const value = await readJsonFile(files, stepDetectorFileName);
  try {
    return validateStepDetector(value, 'step detector');
  } catch (error) {
    throw new ModelLoadError(`is not a step detector this version reads (${error instanceof Error ? error.message : String(error)})`, {
      file: files.describe(stepDetectorFileName),
      cause: error,
    });
  }
}

async function onnxSource(files: ModelFiles, graph: string, entries: readonly string[], config: unknown, dtype: WeightDtypeV1): Promise<OnnxModelSource> {
  const held = dtype === 'fp32' ? {} : { weightDtype: dtype };
  const localPath = files.localPath?.(graph);
  if (localPath !== undefined) {
    // Opened before its path is handed on: a directory, a FIFO or a link loop in its place is a
    // ModelLoadError naming it, where onnxruntime would fail obscurely or block forever.
    await (await files.open(graph)).close();
    return { kind: 'onnx', path: localPath, description: `the ONNX graph ${localPath}`, ...held };
  }
  const folder = graph.includes('/') ? graph.slice(0, graph.lastIndexOf('/') + 1) : '';
  const external = entries.find((entry) => entry.startsWith(folder) && !entry.slice(folder.length).includes('/') && externalDataFile.test(entry));
  if (external !== undefined) {
    throw new ModelLoadError(
      `the graph's weights are in a separate file (${external}), which onnxruntime reads only from disk; load this folder from disk ` +
        '(ProcessRM.fromPretrained in Node), or export the model with its weights inside the graph',
      { file: files.describe(graph) },
    );
  }
  const path = files.describe(graph);
  return { kind: 'onnx', path, bytes: await readWholeFile(files, graph), configJson: JSON.stringify(config), description: `the ONNX graph ${path}`, ...held };
}

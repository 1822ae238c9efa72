import { isDecoderSource, isOnnxSource, unsupportedSourceReason, type BackendRegistration, type DecoderModel, type WeightDtypeV1 } from '@reward-lens/spec';

import { inMemoryGraphOptions } from '@reward-lens/onnx-backend-common';
import { createOnnxNodeBackend, type OnnxNodeBackendOptions } from './create-onnx-node-backend.js';

/**
 * Registers `onnx-node` (priority 20, above `tiny`): it runs ONNX graphs from disk or in memory (`source.bytes`), and decoder
 * weights in memory by first exporting them with `@reward-lens/onnx-export` (in memory, so up to
 * protobuf's 2 GiB; with the cache and hidden states, and LINEAR_READOUT from the weights).
 * Settings come from `settings['onnx-node']` (`OnnxNodeBackendOptions`).
 */
export const onnxNodeBackendRegistration: BackendRegistration = {
  name: 'onnx-node',
  priority: 20,
  sourceKinds: ['onnx', 'decoder'],
  // q8 and q4: a graph of them (`model_q4.onnx`), or decoder weights exported with MatMulNBits.
  dtypes: ['fp32', 'q8', 'q4'],
  unavailableReason(source) {
    return isOnnxSource(source) || isDecoderSource(source) ? null : unsupportedSourceReason('onnx-node', source, ['onnx', 'decoder']);
  },
  async create(source, options) {
    const own = (options.settings?.['onnx-node'] ?? {}) as OnnxNodeBackendOptions;
    // `threads` means onnxruntime's intra-op threads here, unless the settings give their own.
    const settings = options.threads !== undefined && own.intraOpThreads === undefined ? { ...own, intraOpThreads: options.threads } : own;
    if (isOnnxSource(source)) {
      const held = source.weightDtype ?? 'fp32';
      if (options.dtype !== undefined && options.dtype !== held) throw new Error(`the graph holds ${held} weights, not ${options.dtype}`);
      const graphSettings = held === 'fp32' ? settings : { ...settings, weightDtype: held };
      // A graph already in memory (picked files, `ProcessRM.fromFiles`) runs from its bytes, with the config.json text it came with.
      return source.bytes
        ? createOnnxNodeBackend(source.bytes, inMemoryGraphOptions(source, graphSettings))
        : createOnnxNodeBackend(source.path, graphSettings);
    }
    if (!isDecoderSource(source)) throw new Error(unsupportedSourceReason('onnx-node', source, ['onnx', 'decoder']));
    // Loaded only when a decoder is exported, so that running ONNX files needs no exporter.
    const { exportDecoderToOnnx } = await import('@reward-lens/onnx-export');
    const dtype = exportDtype(options.dtype, source.model);
    const graph = exportDecoderToOnnx(source.model, { withPast: true, hiddenStates: true, readPositions: true, dtype });
    return createOnnxNodeBackend(graph, {
      ...settings,
      decoder: source.model,
      sourceNote: `exported to ONNX in memory from decoder weights${dtype === 'fp32' ? '' : ` (${dtype}, MatMulNBits)`}`,
      ...(dtype === 'fp32' ? {} : { weightDtype: dtype }),
    });
  },
};

/** The dtype an in-memory export writes: the one asked for, else that of the tensors a loader quantized. */
function exportDtype(asked: WeightDtypeV1 | undefined, model: DecoderModel): 'fp32' | 'q8' | 'q4' {
  if (asked === 'q8' || asked === 'q4' || asked === 'fp32') return asked;
  if (asked !== undefined) throw new Error(`onnx-node holds fp32, q8 and q4 weights, not ${asked}`);
  const formats = new Set([...(model.quantized?.values() ?? [])].map((tensor) => tensor.format));
  return formats.has('q4') ? 'q4' : formats.has('q8') ? 'q8' : 'fp32';
}

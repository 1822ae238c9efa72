import { ModelLoadError, expectedTensorShapes, type DecoderConfig, validateDecoderModel, type DecoderModel, type QuantizedTensorV1 } from '@reward-lens/spec';

import type { SafetensorsTensor } from './safetensors.js';

/** Tensors read from one file, with the file's name for errors. */
export interface TensorSource {
  file: string;
  tensors: ReadonlyMap<string, SafetensorsTensor>;
  /** Tensors quantized as they were read (`dtype` of `loadDecoderFiles`), with their stored shapes. */
  quantized?: ReadonlyMap<string, { shape: number[]; tensor: QuantizedTensorV1 }>;
}

/**
 * The Hugging Face name a stored tensor stands for, or undefined when the config does not use it.
 * Checkpoints saved from a bare `LlamaModel` (not `...ForCausalLM`) lack the `model.` prefix.
 */
export function decoderTensorName(storedName: string, expected: ReadonlyMap<string, unknown>): string | undefined {
  if (expected.has(storedName)) return storedName;
  if (expected.has(`model.${storedName}`)) return `model.${storedName}`;
  return undefined;
}

/**
 * Gathers the tensors a config needs from one or more files, checking each tensor's shape
 * against the config (the error names the file it came from) and that none is missing (the
 * error names `options.weightsFile`, the file or index that should have listed it).
 * `options.skipped` names stored tensors left unread because the config does not use them.
 */
export function collectDecoderTensors(
  config: DecoderConfig,
  sources: readonly TensorSource[],
  options: { weightsFile: string; skipped?: readonly string[] },
): { model: DecoderModel; notes: string[] } {
  const expected = expectedTensorShapes(config);
  const tensors = new Map<string, Float32Array>();
  const quantized = new Map<string, QuantizedTensorV1>();
  const ignored = [...(options.skipped ?? [])];
  const renamed: string[] = [];
  for (const { file, tensors: stored, quantized: storedQuantized } of sources) {
    const shapeOf = (storedName: string) => stored.get(storedName)?.shape ?? storedQuantized!.get(storedName)!.shape;
    // Exact names first, so that a prefixed name wins over its bare twin.
    const names = [...stored.keys(), ...(storedQuantized?.keys() ?? [])].sort((left, right) => Number(!expected.has(left)) - Number(!expected.has(right)));
    for (const storedName of names) {
      const name = decoderTensorName(storedName, expected);
      if (name === undefined || tensors.has(name) || quantized.has(name)) {
        ignored.push(storedName);
        continue;
      }
      const storedShape = shapeOf(storedName);
      const shape = expected.get(name)!;
      if (storedShape.length !== shape.length || storedShape.some((dimension, index) => dimension !== shape[index])) {
        throw new ModelLoadError(`tensor "${storedName}" has shape [${storedShape.join(', ')}], the config needs [${shape.join(', ')}]`, { file });
      }
      if (name !== storedName) renamed.push(storedName);
      const held = stored.get(storedName);
      if (held) tensors.set(name, held.data);
      else quantized.set(name, storedQuantized!.get(storedName)!.tensor);
    }
  }
  const model: DecoderModel = { config, tensors, ...(quantized.size > 0 ? { quantized } : {}) };
  validateDecoderModel(model, options.weightsFile, { quantized: true });
  const notes: string[] = [];
  if (renamed.length > 0) notes.push(`${renamed.length} tensors were stored without the "model." prefix (a bare base model) and were read as if they had it`);
  if (ignored.length > 0) {
    const shown = ignored
      .slice(0, 5)
      .map((name) => `"${name}"`)
      .join(', ');
    notes.push(`${ignored.length} stored tensors are not used by this config and were skipped: ${shown}${ignored.length > 5 ? ', …' : ''}`);
  }
  return { model, notes };
}

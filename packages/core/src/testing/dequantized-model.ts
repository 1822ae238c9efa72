import type { DecoderModel, WeightDtypeV1 } from '@reward-lens/spec';
import { dequantizeRows, quantizationPlan, quantizeTensor } from '@reward-lens/spec/internal';

/**
 * The model as a backend holding it as `dtype` computes with it: every matrix the plan
 * quantizes replaced by its dequantized float32 values. A float64 oracle over this model is
 * the reference for the quantized backend's products (the quantization's own error is tested
 * apart, in spec's `quantized-tensor.test.ts`).
 *
 * @example
 * runBackendConformance({ harness, label: 'mine at q8', createBackend: (model) => createMine(model, { dtype: 'q8' }),
 *   createReference: async (model) => createReferenceBackend(dequantizedModel(model, 'q8')) });
 */
export function dequantizedModel(model: DecoderModel, dtype: WeightDtypeV1): DecoderModel {
  const tensors = new Map(model.tensors);
  for (const [name, { format, rows, columns }] of quantizationPlan(model.config, dtype).tensors) {
    const back = new Float32Array(rows * columns);
    dequantizeRows(quantizeTensor(model.tensors.get(name)!, format, rows, columns), 0, rows, back);
    tensors.set(name, back);
  }
  return { config: model.config, tensors };
}

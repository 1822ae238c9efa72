import { ModelLoadError } from '../errors/model-load-error.js';
import { expectedTensorShapes, type DecoderConfig } from './decoder-config.js';
import type { QuantizedTensorV1 } from './quantized-tensor.js';

/** A decoder's config and its tensors by Hugging Face name: what every backend loads. */
export interface DecoderModel {
  config: DecoderConfig;
  /** The float32 tensors: all of them, unless some are in `quantized`. */
  tensors: ReadonlyMap<string, Float32Array>;
  /**
   * Matrices held quantized instead of in `tensors` (a loader asked for `dtype: 'q8'` or `'q4'`
   * quantizes them as it reads, see `quantizationPlan`). Only a backend that holds that dtype
   * (`BackendRegistration.dtypes`) takes such a model; `validateDecoderModel` refuses it elsewhere.
   */
  quantized?: ReadonlyMap<string, QuantizedTensorV1>;
}

/**
 * Checks that every tensor the config needs is present with the right number of elements.
 * `source` names the file the tensors came from, for the error message. A model with quantized
 * tensors is refused, naming one, unless `options.quantized` says the caller holds them.
 */
export function validateDecoderModel(model: DecoderModel, source = 'weights', options: { quantized?: boolean } = {}): void {
  const quantized = model.quantized ?? new Map<string, QuantizedTensorV1>();
  if (quantized.size > 0 && options.quantized !== true) {
    const [name, tensor] = quantized.entries().next().value as [string, QuantizedTensorV1];
    throw new ModelLoadError(
      `tensor "${name}" is held quantized (${tensor.format}, as ${quantized.size} tensors are), and this consumer takes float32 tensors only: load the model with dtype 'fp32'`,
      { file: source },
    );
  }
  for (const [name, shape] of expectedTensorShapes(model.config)) {
    const size = shape.reduce((product, dimension) => product * dimension, 1);
    const held = quantized.get(name);
    if (held) {
      if (shape.length !== 2 || held.rows !== shape[0] || held.columns !== shape[1]) {
        throw new ModelLoadError(`tensor "${name}" is held quantized as [${held.rows}, ${held.columns}], config needs shape [${shape.join(', ')}]`, {
          file: source,
        });
      }
      continue;
    }
    const tensor = model.tensors.get(name);
    if (!tensor) throw new ModelLoadError(`tensor "${name}" is missing (config needs shape [${shape.join(', ')}])`, { file: source });
    if (tensor.length !== size) {
      throw new ModelLoadError(`tensor "${name}" has ${tensor.length} elements, config needs shape [${shape.join(', ')}] (${size})`, { file: source });
    }
  }
}

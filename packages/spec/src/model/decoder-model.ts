import { ModelLoadError } from '../errors/model-load-error.js';
import { expectedTensorShapes, type DecoderConfig } from './decoder-config.js';

/** A decoder's config and its float32 tensors by Hugging Face name: what every backend loads. */
export interface DecoderModel {
  config: DecoderConfig;
  tensors: ReadonlyMap<string, Float32Array>;
}

/**
 * Checks that every tensor the config needs is present with the right number of elements.
 * `source` names the file the tensors came from, for the error message.
 */
export function validateDecoderModel(model: DecoderModel, source = 'weights'): void {
  for (const [name, shape] of expectedTensorShapes(model.config)) {
    const tensor = model.tensors.get(name);
    if (!tensor) throw new ModelLoadError(`tensor "${name}" is missing (config needs shape [${shape.join(', ')}])`, { file: source });
    const size = shape.reduce((product, dimension) => product * dimension, 1);
    if (tensor.length !== size) {
      throw new ModelLoadError(`tensor "${name}" has ${tensor.length} elements, config needs shape [${shape.join(', ')}] (${size})`, { file: source });
    }
  }
}

import { headWidth, type DecoderConfig } from '../../model/decoder-config.js';
import type { ModelInfoV1 } from './backend-v1.js';

/** The spec's model facts for a backend that runs a decoder config, with its own description. */
export function decoderModelInfo(config: DecoderConfig, description: string): ModelInfoV1 {
  return {
    description,
    vocabSize: config.vocabSize,
    hiddenSize: config.hiddenSize,
    numLayers: config.numLayers,
    maxPositions: config.maxPositions,
    heads: config.heads.map((head) => ({ name: head.name, kind: head.kind, width: headWidth(config, head) })),
  };
}

/** `llama hidden=64 layers=2 heads=4/2`: how backends describe a decoder. */
export function describeDecoder(config: DecoderConfig): string {
  return `${config.architecture} hidden=${config.hiddenSize} layers=${config.numLayers} heads=${config.numHeads}/${config.numKvHeads}`;
}

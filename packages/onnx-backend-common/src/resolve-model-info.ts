import { ModelLoadError, type HeadInfoV1, type HeadKindV1, type ModelInfoV1 } from '@reward-lens/spec';
import type { GraphLayout, HeadOutput } from './graph-layout.js';
import type { OnnxHeadConfig, OnnxModelConfig } from './onnx-model-config.js';

/** A head of the backend and the graph output computing it. */
export interface ResolvedHead extends HeadInfoV1 {
  output: string;
  /** The input giving the columns the head is computed at, when the graph has read positions. */
  positionsInput?: string;
}

export interface ResolvedModel {
  info: ModelInfoV1;
  heads: Map<string, ResolvedHead>;
}

/**
 * Names each head output and fills in the model facts, from the graph where it shows them
 * (layer count from the cache inputs or hidden states, widths from output shapes) and from the
 * config where it does not (vocabulary, positions). Disagreements are load errors.
 *
 * `logits` alone is the LM head, unless its width is not the vocabulary's, or the config has
 * no LM head but a token-classification head of that width: Optimum's token-classification
 * exports call class logits `logits` too.
 */
export function resolveModelInfo(layout: GraphLayout, config: OnnxModelConfig, file: string): ResolvedModel {
  const fail = (message: string): never => {
    throw new ModelLoadError(message, { file });
  };
  const configHeads = config.heads ?? [];
  const heads = new Map<string, ResolvedHead>();
  for (const output of layout.heads) {
    const configured = configHeads.find((head) => head.output === output.perTokenOutput) ?? matchByName(output, configHeads, config.vocabSize);
    const kind: HeadKindV1 = configured?.kind ?? (output.kind === 'logits' ? logitsKind(output, config.vocabSize) : output.kind);
    const name = configured?.name ?? output.name ?? defaultHeadName(kind);
    const width = output.width ?? (kind === 'lm' ? config.vocabSize : kind === 'value' ? 1 : configured?.numLabels);
    if (width === undefined) fail(`the width of output "${output.output}" is not fixed in the graph; give the head's numLabels in options.config.heads`);
    if (heads.has(name)) fail(`two outputs compute a head named "${name}" (${heads.get(name)!.output}, ${output.output})`);
    heads.set(name, { name, kind, width: width!, output: output.output, ...(output.positionsInput ? { positionsInput: output.positionsInput } : {}) });
  }

  const lmWidth = [...heads.values()].find((head) => head.kind === 'lm')?.width;
  const vocabSize =
    config.vocabSize ??
    lmWidth ??
    fail('the vocabulary size is unknown: the graph has no LM head output and no config.json beside it; pass options.config.vocabSize');
  if (lmWidth !== undefined && lmWidth !== vocabSize) fail(`the LM head output has width ${lmWidth}, the config says the vocabulary has ${vocabSize} tokens`);

  const graphLayers =
    layout.pastLayers > 0 ? layout.pastLayers : layout.hiddenLayers.length > 0 ? layout.hiddenLayers[layout.hiddenLayers.length - 1]! : undefined;
  const numLayers =
    config.numLayers ??
    graphLayers ??
    fail('the number of layers is unknown (no past_key_values inputs, no hidden_states outputs); pass options.config.numLayers');
  if (graphLayers !== undefined && graphLayers !== numLayers) fail(`the graph has ${graphLayers} layers, the config says ${numLayers}`);
  const hiddenSize = config.hiddenSize ?? layout.hiddenSize ?? fail('the hidden size is unknown; pass options.config.hiddenSize');
  if (layout.hiddenSize !== undefined && layout.hiddenSize !== hiddenSize)
    fail(`hidden_states outputs have width ${layout.hiddenSize}, the config says ${hiddenSize}`);
  const maxPositions =
    config.maxPositions ?? fail('the number of positions is unknown; pass options.config.maxPositions (or put config.json beside the model)');

  const kv = layout.kvHeads !== undefined && layout.headDim !== undefined ? ` kv=${layout.kvHeads}x${layout.headDim}` : '';
  return {
    info: {
      description: `onnx ${config.architecture ?? 'decoder'} hidden=${hiddenSize} layers=${numLayers}${kv}`,
      vocabSize,
      hiddenSize,
      numLayers,
      maxPositions,
      heads: [...heads.values()].map(({ name, kind, width }) => ({ name, kind, width })),
    },
    heads,
  };
}

function matchByName(output: HeadOutput, configHeads: readonly OnnxHeadConfig[], vocabSize: number | undefined): OnnxHeadConfig | undefined {
  if (output.name !== undefined) return configHeads.find((head) => head.name === output.name && head.output === undefined);
  if (output.kind === 'value') {
    const values = configHeads.filter((head) => head.kind === 'value' && head.output === undefined);
    return values.length === 1 ? values[0] : undefined;
  }
  // Plain `logits`: the config's LM head when the width allows it, else its classifier of that width.
  const lm = configHeads.find((head) => head.kind === 'lm' && head.output === undefined);
  if (lm && (output.width === undefined || vocabSize === undefined || output.width === vocabSize)) return lm;
  return configHeads.find(
    (head) => head.kind === 'token-classification' && head.output === undefined && (output.width === undefined || head.numLabels === output.width),
  );
}

function logitsKind(output: HeadOutput, vocabSize: number | undefined): HeadKindV1 {
  return vocabSize !== undefined && output.width !== undefined && output.width !== vocabSize ? 'token-classification' : 'lm';
}

function defaultHeadName(kind: HeadKindV1): string {
  return kind === 'lm' ? 'lm' : kind === 'value' ? 'value' : 'classifier';
}

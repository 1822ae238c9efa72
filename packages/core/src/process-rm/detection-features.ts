import { type BackendV1, type ReadRequestV1, InvalidInputError } from '@reward-lens/spec';

import type { CharSpan } from '@reward-lens/tokenizers';
import type { DetectionFeatureOptions, SolutionTokenFeatures } from '../step-detection/solution-token-features.js';
import { forwardReadsInBatches } from './forward-batches.js';
import type { TokenizedPair } from './tokenize-pair.js';

/** What reading a detector's features needs of a PRM. */
export interface DetectionContext {
  backend: BackendV1;
  /** The pair laid out as the recipe lays out a solution of one step (`{ problem, steps: [solution] }`). */
  layOut(problem: string, solution: string): TokenizedPair;
  batchSize: number;
  padding: 'left' | 'right';
  padTokenId: number;
}

/** One solution laid out for the detector's forward pass: the pair, and which of its positions are the solution's tokens. */
export interface DetectionLayout {
  solution: string;
  pair: TokenizedPair;
  /** The positions of the tokens overlapping the solution's characters. */
  positions: number[];
  /** The positions read: `positions`, and the next one under `lookahead: 1` where there is one. */
  read: number[];
  tokenSpans: CharSpan[];
  hasNext: boolean;
}

/** Lays one solution out as the recipe lays out a one-step solution (so the text the detector sees is the text the model sees). */
export function layOutForDetection(context: DetectionContext, input: { problem: string; solution: string }, lookahead: 0 | 1): DetectionLayout {
  const pair = context.layOut(input.problem, input.solution);
  const [start, end] = pair.steps[0]!.charSpan;
  const positions: number[] = [];
  pair.offsets.forEach(([tokenStart, tokenEnd], position) => {
    if (tokenEnd > tokenStart && tokenEnd > start && tokenStart < end) positions.push(position);
  });
  const tokenSpans = positions.map((position): CharSpan => {
    const [tokenStart, tokenEnd] = pair.offsets[position]!;
    return [Math.max(tokenStart, start) - start, Math.min(tokenEnd, end) - start];
  });
  const last = positions[positions.length - 1];
  const next = lookahead === 1 && last !== undefined && last + 1 < pair.inputIds.length ? [last + 1] : [];
  return { solution: input.solution, pair, positions, read: [...positions, ...next], tokenSpans, hasNext: next.length > 0 };
}

/**
 * The PRM's hidden states over each solution's tokens, as a step-boundary detector reads them:
 * the pair is laid out as the recipe lays out a one-step solution (so the text the detector sees
 * is the text the model sees), and every token overlapping the solution's characters is read,
 * with the next token's state beside it under `lookahead: 1` (zeros after the last token).
 */
export async function readDetectionFeatures(
  context: DetectionContext,
  inputs: readonly { problem: string; solution: string }[],
  options: DetectionFeatureOptions,
): Promise<SolutionTokenFeatures[]> {
  const { backend } = context;
  for (const layer of options.layers) {
    if (!Number.isInteger(layer) || layer < 0 || layer > backend.info.numLayers) {
      throw new InvalidInputError(`layer ${layer} is not one of 0..${backend.info.numLayers}`, { location: 'options.layers' });
    }
  }
  return readLaidOutFeatures(
    context,
    inputs.map((input) => layOutForDetection(context, input, options.lookahead)),
    options,
  );
}

/** `readDetectionFeatures` over solutions already laid out (`layOutForDetection`). */
export async function readLaidOutFeatures(
  context: DetectionContext,
  laid: readonly DetectionLayout[],
  options: DetectionFeatureOptions,
): Promise<SolutionTokenFeatures[]> {
  const { backend } = context;
  const hiddenSize = backend.info.hiddenSize;
  const reads = await forwardReadsInBatches(
    backend,
    laid.map(({ pair, read }) => ({ inputIds: pair.inputIds, positions: read })),
    {
      batchSize: context.batchSize,
      padding: context.padding,
      padTokenId: context.padTokenId,
      reads: (positions) => options.layers.map((layer): ReadRequestV1 => ({ kind: 'hidden', layer, positions })),
    },
  );
  const width = hiddenSize * (1 + options.lookahead);
  return laid.map((item, index) => {
    const tokens = item.positions.length;
    const features = reads.map((read) => {
      const values = read.values[index]!;
      const out = new Float32Array(tokens * width);
      for (let token = 0; token < tokens; token++) {
        out.set(values.subarray(token * hiddenSize, (token + 1) * hiddenSize), token * width);
        if (options.lookahead === 1 && (token + 1 < tokens || item.hasNext)) {
          out.set(values.subarray((token + 1) * hiddenSize, (token + 2) * hiddenSize), token * width + hiddenSize);
        }
      }
      return out;
    });
    return { solution: item.solution, tokenSpans: item.tokenSpans, features, width, truncatedTokens: item.pair.meta.truncatedTokens };
  });
}

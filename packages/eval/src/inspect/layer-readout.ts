import { InvalidInputError, type ProcessRM, type ScoringInput, type TokenizedStep } from '@reward-lens/core';

/** The reward head read after every layer, per step, for one solution. */
export interface LayerReadout {
  /** The layers read (0 = the embeddings, the last = the model's own output). */
  layers: number[];
  /** `scores[layerIndex][step]`: the recipe's score read at that step after that layer. */
  scores: number[][];
  steps: TokenizedStep[];
}

/** Every layer from 0 (the embeddings) to the last, or the layers asked for, checked against the model. */
export function readoutLayers(prm: ProcessRM, layers?: readonly number[]): number[] {
  const last = prm.backend.info.numLayers;
  const chosen = layers ? [...layers] : Array.from({ length: last + 1 }, (_, layer) => layer);
  for (const layer of chosen) {
    if (!Number.isInteger(layer) || layer < 0 || layer > last)
      throw new InvalidInputError(`layer ${layer} is not one of 0..${last}`, { location: 'options.layers' });
  }
  return chosen;
}

/**
 * The linear-readout battery's first part: the PRM's reward head (final norm included, as every
 * inner-layer read applies it) read after each layer at every step's read position
 * (LINEAR_READOUT), one forward pass per layer. Where in depth the step signal appears: the row of
 * the last layer is `prm.stepScores` itself.
 *
 * @example
 * const [readout] = (await readoutByLayer(prm, [[problem, solution]])).value;
 * readout.scores.at(-1); // the model's step scores
 */
export async function readoutByLayer(
  prm: ProcessRM,
  inputs: readonly ScoringInput[],
  options: { layers?: readonly number[] } = {},
): Promise<{ value: LayerReadout[]; notes: string[] }> {
  const layers = readoutLayers(prm, options.layers);
  const readouts: LayerReadout[] = inputs.map(() => ({ layers, scores: [], steps: [] }));
  let notes: string[] = [];
  for (const layer of layers) {
    const evidence = await prm.stepScores(inputs, { layer });
    notes = evidence.notes.filter((note) => !note.startsWith('read at layer'));
    evidence.value.curves.forEach((curve, index) => {
      readouts[index]!.scores.push(Array.from(curve));
      readouts[index]!.steps = evidence.value.steps[index]!;
    });
  }
  return { value: readouts, notes };
}

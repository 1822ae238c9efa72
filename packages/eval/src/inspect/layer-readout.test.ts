import { createByteBpeTokenizer, createRandomDecoder, ProcessRM } from '@reward-lens/core';
import { createReferenceBackend } from '@reward-lens/core/testing';
import '@reward-lens/backend-tiny/register';
import { describe, expect, it } from 'vitest';
import { readoutByLayer } from './layer-readout.js';

const pair = ['Compute (2+2)*3-5.', 'First, 2+2=4.\nThen, 4*3=12.\nFinally, 12-5=7.'] as const;

describe('readoutByLayer', () => {
  it('reads the reward head after every layer; the last row is stepScores, every row the float64 oracle’s', async () => {
    const prm = await ProcessRM.fromTiny({ seed: 0 });
    const { value, notes } = await readoutByLayer(prm, [pair]);
    const [readout] = value;
    expect(readout!.layers).toEqual([0, 1, 2]);
    expect(readout!.scores.map((row) => row.length)).toEqual([3, 3, 3]);
    expect(readout!.steps.map((step) => step.text)).toEqual(pair[1].split('\n'));
    expect(readout!.scores[2]).toEqual([...(await prm.stepScores([pair])).value.curves[0]!]);
    expect(notes.some((note) => note.startsWith('read at layer'))).toBe(false);
    // The oracle, written apart from every backend, reads the same head at the same layers.
    const oracle = ProcessRM.fromBackend(createReferenceBackend(createRandomDecoder({ seed: 0 })), createByteBpeTokenizer());
    const expected = (await readoutByLayer(oracle, [pair])).value[0]!;
    readout!.scores.forEach((row, layer) =>
      row.forEach((score, step) => expect(Math.abs(score - expected.scores[layer]![step]!), `layer ${layer} step ${step}`).toBeLessThan(1e-4)),
    );
    // Inner layers are not the final one: the battery shows a signal forming, not one number repeated.
    expect(readout!.scores[0]).not.toEqual(readout!.scores[2]);
    await expect(readoutByLayer(prm, [pair], { layers: [3] })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import '@reward-lens/backend-tiny/register';
import { describe, expect, it } from 'vitest';
import { defaultModelWeightsUrl, loadDefaultPrm as loadInPage } from '../src/browser.js';
import { defaultModelFolder, loadDefaultPrm } from '../src/index.js';

const input = {
  problem: 'Ann buys 4 boxes of pencils. Each box holds 12 pencils. She gives 8 pencils to Ben. How many pencils does Ann have now?',
  steps: ['4 boxes of 12 pencils is 4 × 12 = 48 pencils.', '48 pencils minus 8 pencils is 48 − 8 = 30 pencils.', 'The answer is 30.'],
};

describe('the browser entry', () => {
  it('gives the scores, trust and notes of the Node entry, from the weights it is handed or fetches', async () => {
    const bytes = new Uint8Array(await readFile(join(defaultModelFolder, 'model.safetensors')));
    const fromDisk = await loadDefaultPrm({ backend: 'tiny' });
    const expected = await fromDisk.stepScores([input]);
    const fetched: string[] = [];
    const fetcher = async (url: URL | string) => {
      fetched.push(String(url));
      return new Response(bytes);
    };
    for (const prm of [await loadInPage({ backend: 'tiny', weights: new Blob([bytes]) }), await loadInPage({ backend: 'tiny', fetch: fetcher })]) {
      const evidence = await prm.stepScores([input]);
      expect(Array.from(evidence.value.curves[0]!)).toEqual(Array.from(expected.value.curves[0]!));
      expect(evidence.trust).toBe('CALIBRATED');
      expect(evidence.notes.filter((note) => !note.startsWith('backend'))).toEqual(expected.notes.filter((note) => !note.startsWith('backend')));
      await prm.dispose();
    }
    expect(fetched).toEqual([defaultModelWeightsUrl.href]);
    expect(defaultModelWeightsUrl.href).toMatch(/\/model\/model\.safetensors$/);
    await fromDisk.dispose();
  });

  it('ships its learned step detector in both entries: a one-line solution is split into its steps', async () => {
    const oneLine: [string, string] = [input.problem, input.steps.join(' ')];
    const bytes = new Uint8Array(await readFile(join(defaultModelFolder, 'model.safetensors')));
    for (const prm of [await loadDefaultPrm({ backend: 'tiny' }), await loadInPage({ backend: 'tiny', weights: bytes })]) {
      const pair = await prm.segment(oneLine);
      expect(pair.meta.stepMethod).toBe('learned');
      expect(pair.meta.stepDetector).toMatchObject({ heldOut: { precision: 1, recall: 1 } });
      expect(pair.steps.map((step) => step.text.trim())).toEqual(input.steps);
      await prm.dispose();
    }
  });

  it('names the URL and the status when the weights cannot be fetched', async () => {
    const missing = async () => new Response('not here', { status: 404 });
    await expect(loadInPage({ backend: 'tiny', weights: 'https://example.invalid/model.safetensors', fetch: missing })).rejects.toMatchObject({
      code: 'MODEL_LOAD',
      message: "https://example.invalid/model.safetensors: the default PRM's weights could not be fetched: HTTP 404",
    });
    const unreachable = async () => {
      throw new TypeError('fetch failed');
    };
    await expect(loadInPage({ backend: 'tiny', fetch: unreachable })).rejects.toMatchObject({
      code: 'MODEL_LOAD',
      message: expect.stringMatching(/\(fetch failed\)/),
    });
  });
});

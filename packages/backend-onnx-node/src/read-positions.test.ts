import { createTinyBackend } from '@reward-lens/backend-tiny';
import { createRandomDecoder, type ForwardRequestV1, type ReadRequestV1 } from '@reward-lens/spec';
import { expectClose } from '@reward-lens/core/testing';
import { createOrtBackend, type OrtModule, type OrtSession } from '@reward-lens/onnx-backend-common';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import * as ort from 'onnxruntime-node';
import { afterAll, describe, expect, it } from 'vitest';

const model = createRandomDecoder({ seed: 3 });
const { vocabSize } = model.config;

/** onnxruntime-node, with every run's fetches written down. */
function recordingOrt(fetched: string[][]): OrtModule<ort.InferenceSession.SessionOptions> {
  return {
    Tensor: ort.Tensor,
    InferenceSession: {
      async create(model: string | Uint8Array, options?: ort.InferenceSession.SessionOptions): Promise<OrtSession> {
        const session = typeof model === 'string' ? await ort.InferenceSession.create(model, options) : await ort.InferenceSession.create(model, options);
        return {
          inputMetadata: session.inputMetadata,
          outputMetadata: session.outputMetadata,
          run: (feeds, fetches) => {
            fetched.push(fetches);
            return session.run(feeds as Record<string, ort.Tensor>, fetches);
          },
          release: () => session.release(),
        };
      },
    },
  };
}

const fetched: string[][] = [];
const settings = { name: 'onnx-node', config: model.config, sessionOptions: { intraOpNumThreads: 1, interOpNumThreads: 1 } };
const withReads = await createOrtBackend(exportDecoderToOnnx(model, { withPast: true, readPositions: true }), { ...settings, ort: recordingOrt(fetched) });
const standard = await createOrtBackend(exportDecoderToOnnx(model, { withPast: true }), { ...settings, ort: recordingOrt([]) });
const tiny = createTinyBackend(model);
afterAll(async () => {
  await withReads.dispose();
  await standard.dispose();
  await tiny.dispose();
});

/** Three rows of 12 columns: full, right-padded (7 real), left-padded (5 real). */
function request(reads: ReadRequestV1[]): ForwardRequestV1 {
  const sequenceLength = 12;
  const inputIds = Int32Array.from({ length: 3 * sequenceLength }, (_, index) => (index * 13 + 5) % vocabSize);
  const attentionMask = new Uint8Array(3 * sequenceLength);
  attentionMask.fill(1, 0, 12);
  attentionMask.fill(1, 12, 19);
  attentionMask.fill(1, 31, 36);
  return { batchSize: 3, sequenceLength, inputIds, attentionMask, reads };
}

const steps = [
  [2, 7, 11],
  [0, 6],
  [9, 11],
];
const everyPosition = [Array.from({ length: 12 }, (_, index) => index), Array.from({ length: 7 }, (_, index) => index), [7, 8, 9, 10, 11]];

describe('onnx-node: heads computed at the read positions only', () => {
  it('reads value, LM columns and full-vocabulary rows from read.* and matches backend-tiny and the standard graph', async () => {
    const reads: ReadRequestV1[] = [
      { kind: 'head', head: 'value', positions: steps },
      { kind: 'head', head: 'lm', positions: steps, columns: [17, 3] },
      { kind: 'head', head: 'lm', positions: [[7], [6, 0], [11]] },
      { kind: 'head', head: 'classifier', positions: [[11, 2], [], [9]] },
    ];
    fetched.length = 0;
    const got = await withReads.doForward(request(reads));
    expect(fetched).toEqual([['read.scores.value', 'read.logits', 'read.class_logits.classifier']]);
    expect(withReads.info.heads.map((head) => head.name).sort()).toEqual(['classifier', 'lm', 'value']);
    const viaStandard = await standard.doForward(request(reads));
    const viaTiny = await tiny.doForward(request(reads));
    got.reads.forEach((read, index) => {
      expect(read.width).toBe(viaTiny.reads[index]!.width);
      read.values.forEach((values, row) => {
        expectClose(values, viaTiny.reads[index]!.values[row]!, 1e-4, `read ${index}, row ${row}, against backend-tiny`);
        expectClose(values, viaStandard.reads[index]!.values[row]!, 1e-5, `read ${index}, row ${row}, against the standard graph`);
      });
    });
  });

  it('reads a head at every position, the rows as views of the output', async () => {
    fetched.length = 0;
    const got = await withReads.doForward(request([{ kind: 'head', head: 'lm', positions: everyPosition }]));
    expect(fetched).toEqual([['read.logits']]);
    const rows = got.reads[0]!.values;
    expect(new Set(rows.map((values) => values.buffer)).size).toBe(1);
    expect(rows.map((values) => values.length)).toEqual([12 * vocabSize, 7 * vocabSize, 5 * vocabSize]);
    const viaTiny = await tiny.doForward(request([{ kind: 'head', head: 'lm', positions: everyPosition }]));
    rows.forEach((values, row) => expectClose(values, viaTiny.reads[0]!.values[row]!, 1e-4, `row ${row}`));
  });

  it('copies a few positions out of a large output, so the output can be freed', async () => {
    const got = await standard.doForward(request([{ kind: 'head', head: 'lm', positions: [[3], [], [10]] }]));
    for (const values of got.reads[0]!.values) expect(values.buffer.byteLength).toBe(values.byteLength);
  });
});

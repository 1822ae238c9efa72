import { createTinyBackend } from '@reward-lens/backend-tiny';
import { createRandomDecoder, defineDecoderConfig, tinyDecoderConfig, type DecoderModel } from '@reward-lens/spec';
import { dequantizeRows, quantizationPlan, quantizeTensor } from '@reward-lens/spec/internal';
import { conformanceConfigs, expectClose, toleranceFor } from '@reward-lens/core/testing';
import { describe, expect, it } from 'vitest';
import { weightMatrices } from './weight-matrices.js';

const model = createRandomDecoder({ seed: 3, config: defineDecoderConfig({ ...tinyDecoderConfig, hiddenSize: 64, intermediateSize: 96 }) });
const q = 'model.layers.0.self_attn.q_proj.weight';

describe('the matrices webgpu uploads', () => {
  it("a loader's tensor already in the planned format is uploaded as it lies, not copied; heads and norms stay float32", () => {
    const plan = quantizationPlan(model.config, 'q8').tensors;
    const held: DecoderModel = {
      config: model.config,
      tensors: new Map([...model.tensors].filter(([name]) => !plan.has(name))),
      quantized: new Map([...plan].map(([name, { rows, columns }]) => [name, quantizeTensor(model.tensors.get(name)!, 'q8', rows, columns)])),
    };
    const matrices = weightMatrices(held, 'q8');
    const region = matrices.region(q);
    expect(region.type).toBe('q8');
    expect(region.data.buffer).toBe(held.quantized!.get(q)!.bytes.buffer);
    expect(region.scales).toBe(held.quantized!.get(q)!.scales);
    expect(matrices.region('model.norm.weight').type).toBe('f32');
  });

  it('float32 tensors are quantized as the plan says, and q, k and v stacked hold what each holds alone', () => {
    const matrices = weightMatrices(model, 'q4');
    expect(matrices.types()).toEqual(['q4']);
    const names = ['q_proj', 'k_proj', 'v_proj'].map((name) => `model.layers.1.self_attn.${name}.weight`);
    const stacked = matrices.stacked(names);
    const alone = names.map((name) => matrices.region(name));
    expect(stacked.type).toBe('q4');
    expect(Array.from(stacked.data)).toEqual(alone.flatMap((part) => Array.from(part.data)));
    expect(Array.from(stacked.scales!)).toEqual(alone.flatMap((part) => Array.from(part.scales!)));
    // Rows of 40 weights are not whole q4 blocks: q8 instead, as spec's plan (and backend-tiny) has it.
    const odd = createRandomDecoder({
      seed: 4,
      config: defineDecoderConfig({ ...tinyDecoderConfig, hiddenSize: 40, numHeads: 4, numKvHeads: 2, headDim: 10 }),
    });
    expect(weightMatrices(odd, 'q4').region(q).type).toBe('q8');
  });

  // The fp16 shaders need `shader-f16`, which SwiftShader lacks: this checks, on the CPU, that
  // weights rounded to half precision (as they are uploaded) stay within the tolerance an fp16 backend declares.
  it('keeps a model with half-precision weights within the fp16 tolerance of the fp32 one', async () => {
    for (const { config } of conformanceConfigs) {
      const full = createRandomDecoder({ seed: 1234, config });
      const matrices = weightMatrices(full, 'fp16');
      const plan = quantizationPlan(config, 'fp16').tensors;
      const rounded: DecoderModel = {
        config,
        tensors: new Map(
          [...full.tensors].map(([name, tensor]) => {
            const planned = plan.get(name);
            if (!planned) return [name, tensor];
            const { rows, columns } = planned;
            const back = new Float32Array(rows * columns);
            dequantizeRows(quantizeTensor(tensor, 'fp16', rows, columns), 0, rows, back);
            expect(matrices.region(name).data.byteLength).toBe(rows * columns * 2);
            return [name, back];
          }),
        ),
      };
      const ids = Int32Array.from({ length: 40 }, (_, index) => (index * 37) % config.vocabSize);
      const request = {
        batchSize: 1,
        sequenceLength: ids.length,
        inputIds: ids,
        attentionMask: new Uint8Array(ids.length).fill(1),
        reads: [{ kind: 'head' as const, head: 'value', positions: [Array.from(ids, (_, index) => index)] }],
      };
      const exact = await createTinyBackend(full).doForward(request);
      const half = await createTinyBackend(rounded).doForward(request);
      expectClose(half.reads[0]!.values[0]!, exact.reads[0]!.values[0]!, toleranceFor('fp16'), config.architecture);
    }
  });
});

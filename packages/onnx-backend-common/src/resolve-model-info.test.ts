import { ModelLoadError } from '@reward-lens/spec';
import { describe, expect, it } from 'vitest';
import { inspectGraphLayout, type ValueDescription } from './graph-layout.js';
import { resolveModelInfo } from './resolve-model-info.js';

const tokens = (name: string): ValueDescription => ({ name, type: 'int64', shape: ['batch_size', 'sequence_length'] });
const perToken = (name: string, width: number | string): ValueDescription => ({ name, type: 'float32', shape: ['batch_size', 'sequence_length', width] });
const cache = (name: string): ValueDescription => ({ name, type: 'float32', shape: ['batch_size', 4, 'past_sequence_length', 32] });
const optimumInputs = [tokens('input_ids'), tokens('attention_mask'), tokens('position_ids')];

function resolve(inputs: ValueDescription[], outputs: ValueDescription[], config = {}) {
  return resolveModelInfo(inspectGraphLayout(inputs, outputs, 'model.onnx'), config, 'model.onnx');
}

describe('reading a graph layout', () => {
  it('takes an Optimum causal-LM export with past: logits is the LM head, layers from the cache', () => {
    const inputs = [
      ...optimumInputs,
      cache('past_key_values.0.key'),
      cache('past_key_values.0.value'),
      cache('past_key_values.1.key'),
      cache('past_key_values.1.value'),
    ];
    const outputs = [perToken('logits', 32000), cache('present.0.key'), cache('present.0.value'), cache('present.1.key'), cache('present.1.value')];
    const layout = inspectGraphLayout(inputs, outputs, 'model.onnx');
    expect(layout).toMatchObject({ hasPositionIds: true, pastLayers: 2, hasPresent: true, kvHeads: 4, headDim: 32, hiddenLayers: [] });
    const { info } = resolve(inputs, outputs, { hiddenSize: 128, maxPositions: 2048 });
    expect(info).toMatchObject({ vocabSize: 32000, numLayers: 2, hiddenSize: 128, maxPositions: 2048, heads: [{ name: 'lm', kind: 'lm', width: 32000 }] });
  });

  it('takes an Optimum token-classification export: logits narrower than the vocabulary are class logits', () => {
    const config = { vocabSize: 151_000, hiddenSize: 64, numLayers: 2, maxPositions: 512 };
    const { info, heads } = resolve([tokens('input_ids'), tokens('attention_mask')], [perToken('logits', 2)], config);
    expect(info.heads).toEqual([{ name: 'classifier', kind: 'token-classification', width: 2 }]);
    expect(heads.get('classifier')!.output).toBe('logits');
    // With the config's heads, the classifier keeps its name.
    const named = resolve([tokens('input_ids'), tokens('attention_mask')], [perToken('logits', 2)], {
      ...config,
      heads: [{ name: 'prm', kind: 'token-classification', numLabels: 2 }],
    });
    expect(named.info.heads).toEqual([{ name: 'prm', kind: 'token-classification', width: 2 }]);
  });

  it('names heads from reward-lens output names and maps plain scores to the config value head', () => {
    const outputs = [
      perToken('scores.reward', 1),
      perToken('class_logits.steps', 3),
      perToken('scores', 1),
      perToken('hidden_states.0', 64),
      perToken('hidden_states.1', 64),
    ];
    const { info } = resolve(optimumInputs, outputs, { vocabSize: 100, maxPositions: 64 });
    expect(info.heads.map((head) => [head.name, head.kind, head.width])).toEqual([
      ['reward', 'value', 1],
      ['steps', 'token-classification', 3],
      ['value', 'value', 1],
    ]);
    expect(info).toMatchObject({ numLayers: 1, hiddenSize: 64 });
  });

  it('fails on graphs it cannot feed or read, and on configs that disagree with the graph', () => {
    const fail = (inputs: ValueDescription[], outputs: ValueDescription[], config = {}) => {
      const error = (() => {
        try {
          resolve(inputs, outputs, config);
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(ModelLoadError.isInstance(error)).toBe(true);
      return (error as Error).message;
    };
    expect(fail([...optimumInputs, tokens('token_type_ids')], [perToken('logits', 10)])).toContain('inputs the backend cannot feed (token_type_ids)');
    expect(fail(optimumInputs, [perToken('last_hidden_state', 10)])).toContain('no head outputs');
    expect(fail(optimumInputs, [{ ...perToken('logits', 10), type: 'bfloat16' }])).toContain('only float32 or float16 graphs');
    // Float16 heads beside float32 hidden states: one or the other throughout.
    expect(fail(optimumInputs, [{ ...perToken('logits', 10), type: 'float16' }, perToken('hidden_states.1', 8)])).toContain('one or the other throughout');
    expect(fail(optimumInputs, [perToken('logits', 10)], { vocabSize: 10 })).toContain('number of layers is unknown');
    expect(fail(optimumInputs, [perToken('logits', 10), perToken('hidden_states.2', 8)], { numLayers: 3, maxPositions: 9 })).toContain(
      'the graph has 2 layers, the config says 3',
    );
  });
});

import {
  ProcessRM,
  createByteBpeTokenizer,
  mathShepherdRecipe,
  qwen25MathPrmRecipe,
  recipePresets,
  rlhflowLlama31Recipe,
  sequenceClassifierRecipe,
  skyworkPrmRecipe,
  trlTokenClassificationRecipe,
} from '@reward-lens/core';
import { expectClose } from '@reward-lens/core/testing';
import { describe, expect, it } from 'vitest';
import { processBenchGsm8k } from './processbench.js';
import { llama3Tokenizer, qwenTokenizer } from './real-tokenizers.js';
import { indicesOf, readHead, recipeModel, recipePrm, softmax } from './recipe-model.js';

// The model card's example: ProcessBench gsm8k-0, four steps.
const item = processBenchGsm8k()[0]!;
const input = { problem: item.problem, steps: item.steps };
const sigmoid = (value: number) => 1 / (1 + Math.exp(-value));

describe('reading recipes reproduce the published usage on tiny random models of each family', () => {
  it('lists every preset', () => {
    expect(Object.keys(recipePresets)).toEqual([
      'plain-value',
      'qwen2.5-math-prm',
      'math-shepherd',
      'rlhflow-llama3.1',
      'skywork-o1-prm',
      'trl-token-classification',
      'trl-likelihood',
      'sequence-classifier',
    ]);
  });

  it('qwen2.5-math-prm: P(class 1) of the MLP head at every <extra_0> of the ChatML conversation', async () => {
    const tokenizer = qwenTokenizer();
    const { backend, prm } = recipePrm(qwen25MathPrmRecipe, tokenizer, 'qwen2');
    const evidence = await prm.stepScores([input]);

    // As the model card builds it: apply_chat_template over system, user, assistant = "<extra_0>".join(steps) + "<extra_0>".
    const system = 'Please reason step by step, and put your final answer within \\boxed{}.';
    const conversation =
      `<|im_start|>system\n${system}<|im_end|>\n<|im_start|>user\n${item.problem}<|im_end|>\n` +
      `<|im_start|>assistant\n${item.steps.join('<extra_0>')}<extra_0><|im_end|>\n`;
    const ids = tokenizer.encode(conversation).ids;
    expect(Array.from(prm.tokenize(input).inputIds)).toEqual(ids);
    const positions = indicesOf(ids, 151651);
    expect(positions).toHaveLength(4);
    expect(prm.tokenize(input).readPositions).toEqual(positions);
    const expected = (await readHead(backend, ids, 'classifier', positions)).map((logits) => softmax(logits)[1]!);
    expectClose(evidence.value.curves[0]!, expected, 1e-6, 'step rewards');
    expect(evidence.gauge).toBe('PROBABILITY');
    expect(evidence.value.curves[0]![3]).toBe((await prm.score([input])).value.values[0]);
  });

  it('math-shepherd: P(+) against - from the LM logits at every " ки" tag', async () => {
    const tokenizer = createByteBpeTokenizer({ addedTokens: [' ки'] });
    const { backend, prm } = recipePrm(mathShepherdRecipe, tokenizer, 'mistral');
    const solution = item.steps.map((step, index) => `Step ${index + 1}: ${step.replace(/\n+/g, ' ')}`).join('\n');
    const evidence = await prm.stepScores([{ problem: item.problem, solution }]);

    const text = `${item.problem} ${solution
      .split('\n')
      .map((step) => `${step} ки`)
      .join('\n')}`;
    const ids = [tokenizer.bosTokenId!, ...tokenizer.encode(text).ids];
    expect(Array.from(prm.tokenize({ problem: item.problem, solution }).inputIds)).toEqual(ids);
    const positions = indicesOf(ids, tokenizer.tokenToId(' ки')!);
    const candidates = [tokenizer.tokenToId('+')!, tokenizer.tokenToId('-')!];
    const expected = (await readHead(backend, ids, 'lm', positions)).map((logits) => softmax(candidates.map((id) => logits[id]!))[0]!);
    expectClose(evidence.value.curves[0]!, expected, 1e-6, 'step rewards');
  });

  it('rlhflow-llama3.1: one pass gives what the reference script gets with one pass per step', async () => {
    const tokenizer = llama3Tokenizer();
    const { backend, prm } = recipePrm(rlhflowLlama31Recipe, tokenizer);
    const evidence = await prm.stepScores([input]);

    // The reference: for each k, a conversation of k user turns each answered "+", logits at position -3.
    const header = (role: string) => `<|start_header_id|>${role}<|end_header_id|>\n\n`;
    const system = `<|begin_of_text|>${header('system')}Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n<|eot_id|>`;
    const candidates = [tokenizer.tokenToId('+')!, tokenizer.tokenToId('-')!];
    const expected: number[] = [];
    for (let k = 1; k <= item.steps.length; k++) {
      let conversation = system;
      for (let turn = 0; turn < k; turn++) {
        const text = turn === 0 ? `${item.problem} ${item.steps[0]}` : item.steps[turn]!;
        conversation += `${header('user')}${text.trim()}<|eot_id|>${header('assistant')}+<|eot_id|>`;
      }
      const ids = tokenizer.encode(conversation).ids;
      const [logits] = await readHead(backend, ids, 'lm', [ids.length - 3], candidates);
      expected.push(softmax(logits!)[0]!);
    }
    expectClose(evidence.value.curves[0]!, expected, 1e-5, 'step rewards');
  });

  it('skywork-o1-prm: sigmoid of the value head at the "\\n" appended to each separately encoded step', async () => {
    const tokenizer = qwenTokenizer();
    const { backend, prm } = recipePrm(skyworkPrmRecipe, tokenizer, 'qwen2');
    const response = item.steps.join('\n');
    const evidence = await prm.stepScores([{ problem: item.problem, solution: response }]);

    // prepare_input: encode(bos + problem + "\n"), then per non-empty step encode(step) + [id of "\n"], flag on that id.
    const bos = tokenizer.bosTokenId === null ? [] : [tokenizer.bosTokenId];
    const ids = [...bos, ...tokenizer.encode(`${item.problem}\n`).ids];
    const newline = tokenizer.encode('\n').ids.at(-1)!;
    const flags: number[] = [];
    for (const step of response.split('\n').filter((step) => step !== '')) {
      ids.push(...tokenizer.encode(step).ids, newline);
      flags.push(ids.length - 1);
    }
    expect(Array.from(prm.tokenize({ problem: item.problem, solution: response }).inputIds)).toEqual(ids);
    const expected = (await readHead(backend, ids, 'value', flags)).map(([value]) => sigmoid(value!));
    expectClose(evidence.value.curves[0]!, expected, 1e-6, 'step rewards');
  });

  it('trl-token-classification: P(class 1) at the last token of each step + separator, as PRMTrainer labels it', async () => {
    const tokenizer = llama3Tokenizer();
    const { backend, prm } = recipePrm(trlTokenClassificationRecipe, tokenizer);
    const evidence = await prm.stepScores([input]);

    // tokenize_row: [bos] + prompt_ids + Σ (completion_ids + separator_ids), label on each completion's last token.
    const ids = [tokenizer.bosTokenId!, ...tokenizer.encode(item.problem).ids];
    const labelled: number[] = [];
    for (const step of item.steps) {
      ids.push(...tokenizer.encode(step).ids, ...tokenizer.encode('\n').ids);
      labelled.push(ids.length - 1);
    }
    expect(Array.from(prm.tokenize(input).inputIds)).toEqual(ids);
    const expected = (await readHead(backend, ids, 'classifier', labelled)).map((logits) => softmax(logits)[1]!);
    expectClose(evidence.value.curves[0]!, expected, 1e-6, 'step rewards');
  });

  it("sequence-classifier: the classifier's own reward head, read at every step end; the last read is its usual outcome", async () => {
    const tokenizer = createByteBpeTokenizer();
    const { backend } = recipeModel({ vocabSize: tokenizer.vocabSize, heads: sequenceClassifierRecipe.heads });
    const prm = ProcessRM.fromSequenceClassifier(backend, tokenizer, { delimiter: '\n\n' });
    const solution = item.steps.join('\n\n');
    const evidence = await prm.stepScores([{ problem: item.problem, solution }]);
    expect(evidence.value.stepCounts).toEqual([4]);

    const text = `${item.problem}\n\n${solution}`;
    const encoding = tokenizer.encode(text);
    const ids = [tokenizer.bosTokenId!, ...encoding.ids];
    // The token holding each step's last character, found by a plain scan.
    const positions = item.steps.map((step) => {
      const end = text.indexOf(step) + step.length;
      return 1 + encoding.offsets.findIndex(([start, stop]) => start < end && stop >= end);
    });
    positions[3] = ids.length - 1;
    const expected = (await readHead(backend, ids, 'value', positions)).map(([value]) => value!);
    expectClose(evidence.value.curves[0]!, expected, 1e-6, 'step rewards');
    expect(evidence.gauge).toBe('INVARIANT');
  });
});

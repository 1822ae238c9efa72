import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { InvalidInputError, resolveRecipe, type ReadingRecipe } from '@reward-lens/core';
import {
  createProgressBar,
  listCheckpoints,
  readScratchInit,
  readTrainingSplit,
  trainProcessRewardModel,
  type ModelInit,
  type TrainResult,
} from '@reward-lens/train';
import type { Command } from '../command.js';
import { parseThreadsOption } from '../model-options.js';
import { checkOutputFolder } from '../output-folder.js';
import { parseCommandLine } from '../parse-command-line.js';
import { parseIntegerOption, seedRange } from '../parse-integer-option.js';
import { parseNumberOption } from '../parse-number-option.js';
import { exitCodes } from '../report-error.js';
import { UsageError } from '../usage-error.js';
import { writeText } from '../write-text.js';
import { booleanOptions, helpOption, stringOptions } from '../option-table.js';

const trainUsage = `Usage:
  reward-lens train --data <jsonl> --out <folder> (--config <config.json> --tokenizer <file|folder|characters> | --init <folder> | --resume) [options]

Trains a process reward model on backend-tiny: per-step binary cross-entropy at the step
boundaries, AdamW with warm-up and cosine decay, gradient clipping, batches packed by token
count, held-out loss and ProcessBench F1 while training. Writes a Hugging Face folder to --out
(config.json, model.safetensors, tokenizer.json, README.md with the data, seed and held-out
metrics) and resumable checkpoints to <out>/checkpoints. Ctrl-C stops after the current step
and writes a checkpoint first; --resume continues from the latest checkpoint to the same weights
an uninterrupted run would reach.

Data: JSONL (or a JSON array) of ProcessBench records (id, problem, steps, label,
final_answer_correct), TRL PRM records (prompt, completions, labels) or {problem, steps,
stepLabels} records; labels may be probabilities.

Model:
  --config <file>       a Hugging Face config.json (llama, mistral, qwen2) to train from scratch
  --tokenizer <t>       with --config: a tokenizer.json, a folder holding one, or "characters"
                        (one token per character of the data, digits included)
  --init <folder>       fine-tune a model folder (heads it lacks are initialised)
  --recipe <name>       how the model is read and trained (default trl-token-classification)

Training:
  --steps <n>           optimizer steps (default 1000)
  --batch-tokens <n>    real tokens per batch (default 4096)
  --lr <x>              peak learning rate (default 3e-4)
  --min-lr <x>          end of the cosine decay (default lr / 10)
  --warmup <n>          warm-up steps (default min(100, steps / 10))
  --weight-decay <x>    AdamW decoupled weight decay (default 0.01)
  --clip <x>            global gradient-norm clip (default 1)
  --seed <n>            seeds initialisation, shuffling and the held-out split (default 0)
  --all-steps           count every labelled step (default: steps up to the first error)
  --lm-weight <x>       add a next-token loss on the correct steps, with this weight, read
                        through a head tied to the embeddings (default 0: off); helps a model
                        trained from scratch learn what a step check needs
  --after-error <how>   ProcessBench steps after the first error: ignore (default) or negative
  --threads <n>         threads to train on (default: every core, ${availableParallelism()} here); the
                        weights after each step are the same, bit for bit, for any count
  --shard-tokens <n>    real tokens per gradient shard (default 256): a batch's gradient is
                        the sum of its shards', in order; the weights depend on it

Evaluation and checkpoints:
  --held-out <jsonl>    held-out records (default: --held-out-fraction of --data)
  --held-out-fraction <x>  share of --data held out when there is no --held-out (default 0.05)
  --evaluate-every <n>  held-out evaluation interval (default steps / 10)
  --threshold <x>       a step scoring below it is predicted wrong (default 0.5)
  --checkpoint-every <n>  checkpoint interval (default 100)
  --resume              continue from the latest checkpoint in <out>/checkpoints
  --force               write into a non-empty --out
  --json                print the result as one JSON object
  -h, --help            show this help

Examples:
  reward-lens train --data organism.jsonl --config small.json --tokenizer characters --out prm --steps 2000
  reward-lens train --data organism.jsonl --out prm --resume
`;

const trainOptions = {
  ...stringOptions('data', 'out', 'config', 'tokenizer', 'init', 'recipe'),
  ...stringOptions('steps', 'batch-tokens', 'lr', 'min-lr', 'warmup', 'weight-decay', 'clip', 'seed'),
  ...booleanOptions('all-steps'),
  ...stringOptions('lm-weight', 'after-error', 'threads', 'shard-tokens'),
  ...stringOptions('held-out', 'held-out-fraction', 'evaluate-every', 'threshold', 'checkpoint-every'),
  ...booleanOptions('resume', 'force', 'json'),
  ...helpOption,
} as const;

function resultReport(result: TrainResult): Record<string, unknown> {
  const metrics = result.heldOut;
  return {
    folder: result.folder,
    stopped: result.stopped,
    step: result.step,
    tokens: result.state.tokensSeen,
    seconds: Number(result.state.trainingSeconds.toFixed(1)),
    finalLoss: result.state.losses.at(-1)?.loss ?? null,
    heldOut: metrics
      ? { loss: metrics.loss, f1: metrics.f1, errorAccuracy: metrics.errorAccuracy, correctAccuracy: metrics.correctAccuracy, threshold: metrics.threshold }
      : null,
  };
}

/** `reward-lens train`: trains a PRM and writes it as a Hugging Face folder. */
export const trainCommand: Command = {
  name: 'train',
  summary: 'train a process reward model on step-labelled data (ProcessBench or TRL JSONL)',
  usage: trainUsage,
  async run(args, streams) {
    const { values } = parseCommandLine(args, trainOptions, trainUsage);
    if (values.data === undefined) throw new UsageError('--data is required', trainUsage);
    if (values.out === undefined) throw new UsageError('--out is required', trainUsage);
    const sources = [values.config, values.init].filter((value) => value !== undefined).length;
    if (sources > 1) throw new UsageError('give --config or --init, not both', trainUsage);
    if (sources === 0 && !values.resume)
      throw new UsageError('give --config (with --tokenizer) to train from scratch, --init to fine-tune, or --resume', trainUsage);
    if (values.config !== undefined && values.tokenizer === undefined)
      throw new UsageError('--config needs --tokenizer (a tokenizer.json, a folder, or "characters")', trainUsage);
    if (values.tokenizer !== undefined && values.config === undefined)
      throw new UsageError('--tokenizer goes with --config (a folder given to --init brings its own)', trainUsage);
    const afterError = values['after-error'] ?? 'ignore';
    if (afterError !== 'ignore' && afterError !== 'negative')
      throw new UsageError(`--after-error must be ignore or negative, got ${JSON.stringify(afterError)}`, trainUsage);
    const integer = (flag: keyof typeof values, fallback?: number) => {
      const text = values[flag];
      return typeof text === 'string' ? parseIntegerOption(`--${flag}`, text, { minimum: 1, maximum: 1e9 }, trainUsage) : fallback;
    };
    const number = (flag: keyof typeof values, accepts: (value: number) => boolean, requirement: string) => {
      const text = values[flag];
      return typeof text === 'string' ? parseNumberOption(`--${flag}`, text, accepts, requirement, trainUsage) : undefined;
    };
    const seed = parseIntegerOption('--seed', values.seed, seedRange, trainUsage) ?? 0;
    const steps = integer('steps', 1000)!;
    const fraction = number('held-out-fraction', (value) => value > 0 && value < 1, 'a number between 0 and 1') ?? 0.05;

    if (values.resume) {
      if ((await listCheckpoints(values.out)).length === 0)
        throw new InvalidInputError(`there is no checkpoint to resume under ${join(values.out, 'checkpoints')}`);
    } else {
      await checkOutputFolder(values.out, values.force === true);
    }
    const recipe: ReadingRecipe = resolveRecipe(values.recipe ?? 'trl-token-classification');
    const { records, training, heldOut, heldOutDescription } = await readTrainingSplit({
      data: values.data,
      ...(values['held-out'] !== undefined ? { heldOut: values['held-out'] } : {}),
      heldOutFraction: fraction,
      seed,
      parse: { afterError },
    });
    const init: ModelInit =
      values.config !== undefined
        ? await readScratchInit({ config: values.config, tokenizer: values.tokenizer!, records, heads: recipe.heads })
        : { kind: 'folder', folder: values.init ?? '' };

    const controller = new AbortController();
    const stop = () => controller.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    let result: TrainResult;
    try {
      result = await trainProcessRewardModel({
        data: training,
        heldOut,
        heldOutDescription,
        out: values.out,
        init,
        recipe,
        steps,
        batchTokens: integer('batch-tokens'),
        learningRate: number('lr', (value) => value > 0, 'a positive number'),
        minLearningRate: number('min-lr', (value) => value >= 0, 'a number of at least 0'),
        warmupSteps: parseIntegerOption('--warmup', values.warmup, { minimum: 0, maximum: 1e9 }, trainUsage),
        weightDecay: number('weight-decay', (value) => value >= 0, 'a number of at least 0'),
        clipNorm: number('clip', (value) => value > 0, 'a positive number'),
        seed,
        untilFirstError: values['all-steps'] !== true,
        languageModelWeight: number('lm-weight', (value) => value >= 0, 'a number of at least 0'),
        evaluateEvery: integer('evaluate-every'),
        threshold: number('threshold', (value) => value > 0 && value < 1, 'a number between 0 and 1'),
        checkpointEvery: integer('checkpoint-every'),
        threads: parseThreadsOption(values.threads, trainUsage),
        shardTokens: integer('shard-tokens'),
        resume: values.resume === true,
        signal: controller.signal,
        onEvent: createProgressBar(streams.stderr),
        title: `A process reward model trained on ${values.data}`,
      });
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
    const report = resultReport(result);
    if (values.json) await writeText(streams.stdout, `${JSON.stringify(report)}\n`);
    else {
      const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
      const heldOutLine = result.heldOut
        ? `, held-out loss ${fixed(result.heldOut.loss, 4)}, ProcessBench F1 ${fixed(result.heldOut.f1, 3)} (threshold ${result.heldOut.threshold})`
        : '';
      await writeText(
        streams.stdout,
        `${result.stopped === 'completed' ? 'trained' : `stopped (${result.stopped})`}: step ${result.step} of ${steps}${heldOutLine}; ${result.folder}\n`,
      );
    }
    return result.stopped === 'aborted' ? exitCodes.failure : exitCodes.success;
  },
};

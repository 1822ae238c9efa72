import { generate } from '@reward-lens/core';
import type { Command } from '../command.js';
import { loadLanguageModel } from '../load-language-model.js';
import { defaultBackend } from '../load-process-rm.js';
import { backendOptionHelp, dtypeOptionHelp, parseDtypeOption } from '../model-options.js';
import { parseCommandLine } from '../parse-command-line.js';
import { parseIntegerOption } from '../parse-integer-option.js';
import { exitCodes } from '../report-error.js';
import { unescapeDelimiter } from '../score/unescape-delimiter.js';
import { UsageError } from '../usage-error.js';
import { writeText } from '../write-text.js';
import { booleanOptions, helpOption, stringOptions } from '../option-table.js';
import { parseSamplingOptions } from '../sampling-options.js';

// llama2.c's run defaults (-n 256 -t 1.0 -p 0.9); its seed is the time of day, ours is fixed.
const defaults = { maxTokens: 256, temperature: 1, topP: 0.9, seed: 1 } as const;

const generateUsage = `Usage:
  reward-lens generate [--model <folder>] [--prompt <text>]... [options]

Continues each prompt with a causal language model and prints the prompt followed by its
continuation, decoded as llama2.c's run prints it, then a newline. Several --prompt flags are
generated as one batch; each prompt's text is what it would be alone, and the outputs are
printed in order with a blank line between them. Sampling is llama2.c's: the same seed,
temperature and top-p give the same tokens.

Model:
  --model <folder>          a Hugging Face-style folder (config.json, model.safetensors or
                            model.onnx, tokenizer.json), e.g. one written by reward-lens convert
                            llama2c or reward-lens export onnx; default: the seeded tiny model
                            (random weights: the text is noise)
${backendOptionHelp}
${dtypeOptionHelp}

Generation:
  --prompt <text>           a prompt; repeat for a batch (default: one empty prompt, which
                            starts from BOS as run does without -i)
  --max-tokens <n>          new tokens per prompt at most (default: ${defaults.maxTokens}); llama2.c's -n counts
                            the prompt's tokens too
  --temperature <t>         0 is greedy (default: ${defaults.temperature})
  --top-p <p>               nucleus sampling threshold in (0, 1]; 1 samples from every token
                            (default: ${defaults.topP})
  --seed <n>                seed of the sampler, 0 or more (default: ${defaults.seed}); llama2.c's generator
                            would draw only zeros from 0
  --stop <text>             stop a prompt's continuation where this text appears, and cut it
                            there; repeat for several; \\n, \\t, \\r and \\\\ are interpreted
  --include-stop            keep the stop text at the end

Output:
  --json                    one JSON object per prompt and line: prompt, text (the continuation),
                            fullText (as printed), tokenIds, stopReason (max-tokens,
                            stop-token, stop-string or max-positions)
  -h, --help                show this help

Examples:
  reward-lens convert llama2c stories260K.bin tok512.bin stories260k
  reward-lens generate --model stories260k --temperature 0 --max-tokens 200
  reward-lens generate --model stories260k --prompt 'Once upon a time' --prompt 'Lily' --seed 42
  reward-lens generate --model stories260k --prompt 'Tom' --stop '.' --json
`;

const generateOptions = {
  ...stringOptions('model', 'backend', 'dtype'),
  prompt: { type: 'string', multiple: true },
  ...stringOptions('max-tokens', 'temperature', 'top-p', 'seed'),
  stop: { type: 'string', multiple: true },
  ...booleanOptions('include-stop', 'json'),
  ...helpOption,
} as const;

function parseGenerateSettings(args: readonly string[]) {
  const { values } = parseCommandLine(args, generateOptions, generateUsage);
  if (values.model === '') throw new UsageError('--model must name a folder', generateUsage);
  const stops = (values.stop ?? []).map(unescapeDelimiter);
  if (stops.includes('')) throw new UsageError('--stop must not be empty', generateUsage);
  return {
    ...(values.model !== undefined ? { model: values.model } : {}),
    backend: values.backend ?? defaultBackend(values.model),
    ...(values.dtype !== undefined ? { dtype: parseDtypeOption(values.dtype, generateUsage)! } : {}),
    prompts: values.prompt ?? [''],
    options: {
      maxTokens: parseIntegerOption('--max-tokens', values['max-tokens'], { minimum: 0, maximum: 1_000_000 }, generateUsage) ?? defaults.maxTokens,
      ...parseSamplingOptions(values, defaults, generateUsage),
      seed: parseIntegerOption('--seed', values.seed, { minimum: 0, maximum: Number.MAX_SAFE_INTEGER }, generateUsage) ?? defaults.seed,
      stop: stops,
      includeStop: values['include-stop'] === true,
    },
    json: values.json === true,
  };
}

/** `reward-lens generate`: continue prompts with a causal LM, printed as llama2.c's run prints them. */
export const generateCommand: Command = {
  name: 'generate',
  summary: "continue prompts with a language model, printed as llama2.c's run prints them",
  usage: generateUsage,
  async run(args, streams) {
    const settings = parseGenerateSettings(args);
    const model = await loadLanguageModel(settings);
    try {
      const generations = await generate(model.backend, model.tokenizer, settings.prompts, settings.options);
      if (settings.json) {
        await writeText(streams.stdout, generations.map((generation) => `${JSON.stringify(generation)}\n`).join(''));
        return exitCodes.success;
      }
      await writeText(streams.stdout, generations.map((generation) => `${generation.fullText}\n`).join('\n'));
      // Running out of positions is not what --max-tokens asked for: say so, off stdout.
      const cut = generations.flatMap((generation, index) => (generation.stopReason === 'max-positions' ? [index + 1] : []));
      if (cut.length > 0) {
        const which = settings.prompts.length === 1 ? 'the output' : `output ${cut.join(', ')}`;
        await writeText(streams.stderr, `reward-lens: ${which} stopped at the model's ${model.backend.info.maxPositions} positions, before --max-tokens\n`);
      }
      return exitCodes.success;
    } finally {
      await model.dispose();
    }
  },
};

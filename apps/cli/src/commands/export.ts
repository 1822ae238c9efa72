import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InvalidInputError } from '@reward-lens/core';
import { exportModelFolder } from '@reward-lens/onnx-export/node';
import type { Command } from '../command.js';
import { exportReport } from '../export/export-report.js';
import { readExportSource } from '../export/source-folder.js';
import { recipeNames } from '../load-process-rm.js';
import { checkOutputFolder } from '../output-folder.js';
import { parseCommandLine } from '../parse-command-line.js';
import { exitCodes } from '../report-error.js';
import { outputWidth } from '../text-layout.js';
import { UsageError } from '../usage-error.js';
import { writeText } from '../write-text.js';
import { booleanOptions, helpOption, stringOptions } from '../option-table.js';
import { parseChoiceOption } from '../parse-choice-option.js';

const exportUsage = `Usage:
  reward-lens export onnx <model-folder> <out-folder> [--recipe <name>] [--no-past]
                          [--hidden-states] [--dtype fp32|q8|q4] [--force]

Exports a Hugging Face decoder folder (config.json, model.safetensors, tokenizer.json) as an
ONNX model folder in the Hugging Face hub layout, which transformers.js loads too:
onnx/model.onnx (ONNX opset 17, the layout of Hugging Face Optimum's decoder exports),
onnx/model_read_positions.onnx (the same weights, heads computed only where they are read: what
reward-lens runs), weights over 100 MiB in onnx/model.onnx_data (shared by both), and at the
root config.json (with the exported heads under "reward_lens"), generation_config.json (the
source's, else its BOS and EOS) and the tokenizer files, copied. reward-lens score --model and
generate --model read the folder, on the onnx-node backend.

Heads: those the reading recipe reads (--recipe); without it, those of the recipe config.json's
architecture implies (as score infers it: *ForTokenClassification, *ForSequenceClassification,
Qwen2ForProcessRewardModel), else the LM head of a *ForCausalLM model. Any other architecture
needs --recipe.

Options:
  --recipe <name>     export the heads this recipe reads (reward-lens recipes lists them)
  --no-past           no past_key_values inputs and present outputs: a graph without a KV
                      cache (score reads it; generate needs the cache)
  --hidden-states     add the hidden_states.{0..layers} outputs (activations, linear readouts);
                      on by default when the folder has a step-detector.json
  --dtype <type>      fp32 (default), or q8 / q4: the projections quantized as they are read
                      and written as onnxruntime's MatMulNBits, in onnx/model_quantized.onnx
                      (q8) or onnx/model_q4.onnx, the names transformers.js looks for
  --force             write into <out-folder> even when it already holds files (they are replaced)
  -h, --help          show this help

Examples:
  reward-lens convert llama2c stories260K.bin tok512.bin stories260k
  reward-lens export onnx stories260k stories260k-onnx
  reward-lens generate --model stories260k-onnx --temperature 0 --max-tokens 200
  reward-lens export onnx models/orm models/orm-onnx --recipe sequence-classifier
  reward-lens score --model models/orm-onnx --file records.jsonl
`;

const exportOptions = {
  ...stringOptions('recipe', 'dtype'),
  ...booleanOptions('no-past', 'hidden-states', 'force'),
  ...helpOption,
} as const;

function parseExportCommandLine(args: readonly string[]) {
  const { values, positionals } = parseCommandLine(args, exportOptions, exportUsage, true);
  const [format, inFolder, outFolder, ...extra] = positionals;
  if (format === undefined) throw new UsageError('give the format to export to: onnx', exportUsage);
  if (format !== 'onnx') throw new UsageError(`unknown format ${JSON.stringify(format)} (reward-lens exports to onnx)`, exportUsage);
  if (inFolder === undefined || outFolder === undefined) throw new UsageError('export onnx needs <model-folder> <out-folder>', exportUsage);
  if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`, exportUsage);
  if (inFolder === '' || outFolder === '') throw new UsageError('<model-folder> and <out-folder> must name folders', exportUsage);
  parseChoiceOption('--recipe', values.recipe, recipeNames(), exportUsage);
  const dtype = parseChoiceOption('--dtype', values.dtype, ['fp32', 'q8', 'q4'], exportUsage, 'fp32');
  return {
    inFolder,
    outFolder,
    recipe: values.recipe,
    dtype,
    withPast: values['no-past'] !== true,
    // Absent: the exporter's default (hidden states when the folder has a learned step detector).
    ...(values['hidden-states'] === true ? { hiddenStates: true } : {}),
    force: values.force === true,
  };
}

/** Exporting into the model folder itself would replace its config.json with the graph's. */
async function checkDistinctFolders(inFolder: string, outFolder: string): Promise<void> {
  const canonical = (folder: string) => realpath(folder).catch(() => resolve(folder));
  if ((await canonical(inFolder)) === (await canonical(outFolder))) {
    throw new InvalidInputError('is the model folder itself; export into another folder', { location: outFolder });
  }
}

/** `reward-lens export onnx`: a Hugging Face decoder folder as an ONNX model folder. */
export const exportCommand: Command = {
  name: 'export',
  summary: 'export a model folder as an ONNX model folder (model.onnx, config.json, tokenizer)',
  usage: exportUsage,
  async run(args, streams) {
    const settings = parseExportCommandLine(args);
    // The source is read and the heads settled before the output folder is touched.
    const source = await readExportSource(settings.inFolder, settings.recipe);
    await checkDistinctFolders(settings.inFolder, settings.outFolder);
    await checkOutputFolder(settings.outFolder, settings.force);
    const result = await exportModelFolder(settings.inFolder, settings.outFolder, {
      heads: source.heads,
      withPast: settings.withPast,
      ...(settings.hiddenStates ? { hiddenStates: true } : {}),
      ...(settings.dtype !== 'fp32' ? { dtype: settings.dtype } : {}),
    });
    await writeText(streams.stdout, await exportReport(settings.outFolder, result, source.headsFrom, outputWidth(streams.stdout)));
    return exitCodes.success;
  },
};

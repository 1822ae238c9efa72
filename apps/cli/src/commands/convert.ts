import { readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { convertLlama2cToHf, ModelLoadError, type Llama2cConversion } from '@reward-lens/core';
import { writeDecoderFolder } from '@reward-lens/core/node';
import type { Command } from '../command.js';
import { formatBytes } from '../format-bytes.js';
import { checkOutputFolder } from '../output-folder.js';
import { parseCommandLine } from '../parse-command-line.js';
import { exitCodes } from '../report-error.js';
import { outputWidth, wrap } from '../text-layout.js';
import { UsageError } from '../usage-error.js';
import { writeText } from '../write-text.js';
import { booleanOptions, helpOption } from '../option-table.js';

const convertUsage = `Usage:
  reward-lens convert llama2c <checkpoint.bin> <tokenizer.bin> <out-folder> [--force]

Converts a llama2.c checkpoint (as run.c reads it: export.py's legacy version 0) and its
tokenizer.bin into a Hugging Face folder: config.json (LlamaForCausalLM, BOS 1, EOS 2),
model.safetensors (float32), tokenizer.json (encoding as run.c does) and tokenizer_config.json.
reward-lens generate --model reads it. Both inputs are checked before anything is written.

Options:
  --force             write into <out-folder> even when it already holds files (they are replaced)
  -h, --help          show this help

Examples:
  reward-lens convert llama2c stories260K.bin tok512.bin stories260k
  reward-lens generate --model stories260k --temperature 0 --max-tokens 200
`;

const convertOptions = {
  ...booleanOptions('force'),
  ...helpOption,
} as const;

async function readInput(path: string): Promise<{ bytes: Uint8Array; fileName: string }> {
  try {
    return { bytes: await readFile(path), fileName: path };
  } catch (error) {
    throw new ModelLoadError(`cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { file: path, cause: error });
  }
}

async function conversionReport(folder: string, conversion: Llama2cConversion, tokenizerFile: string, width: number): Promise<string> {
  const { config, tensors } = conversion.model;
  const parameters = [...tensors.values()].reduce((sum, tensor) => sum + tensor.length, 0);
  const special = (key: string, id: number | undefined) => {
    const token = conversion.tokenizerConfig[key];
    return `${typeof token === 'string' ? JSON.stringify(token) : '?'} = ${id ?? '?'}`;
  };
  const size = async (name: string) => formatBytes((await stat(join(folder, name))).size);
  const rows: [string, string][] = [
    [
      'config.json',
      `${conversion.hfConfig.architectures?.join(', ') ?? 'LlamaForCausalLM'}: hidden ${config.hiddenSize}, ${config.numLayers} layers, ` +
        `${config.numHeads} heads (${config.numKvHeads} key/value), vocabulary ${config.vocabSize}, ${config.maxPositions} positions` +
        (config.tieWordEmbeddings ? ', tied embeddings' : ''),
    ],
    ['model.safetensors', `${tensors.size} tensors, ${parameters.toLocaleString('en-US')} parameters, float32, ${await size('model.safetensors')}`],
    ['tokenizer.json', `${config.vocabSize} pieces from ${basename(tokenizerFile)}`],
    ['tokenizer_config.json', `BOS ${special('bos_token', conversion.hfConfig.bosTokenId)}, EOS ${special('eos_token', conversion.hfConfig.eosTokenId)}`],
    ['generation_config.json', `stops at ${JSON.stringify(conversion.generationConfig.eos_token_id)} (EOS, and BOS as run.c does)`],
  ];
  const labelWidth = Math.max(...rows.map(([label]) => label.length));
  const indent = ' '.repeat(2 + labelWidth + 2);
  const lines = rows.flatMap(([label, value]) => wrap(`  ${label.padEnd(labelWidth)}  ${value}`, width, indent));
  return `wrote ${folder}\n${lines.join('\n')}\n`;
}

/** `reward-lens convert llama2c`: a llama2.c checkpoint and tokenizer as a Hugging Face folder. */
export const convertCommand: Command = {
  name: 'convert',
  summary: 'convert a llama2.c checkpoint and tokenizer.bin into a Hugging Face model folder',
  usage: convertUsage,
  async run(args, streams) {
    const { values, positionals } = parseCommandLine(args, convertOptions, convertUsage, true);
    const [format, checkpointPath, tokenizerPath, outFolder, ...extra] = positionals;
    if (format === undefined) throw new UsageError('give the format to convert from: llama2c', convertUsage);
    if (format !== 'llama2c') throw new UsageError(`unknown format ${JSON.stringify(format)} (reward-lens converts from llama2c)`, convertUsage);
    if (outFolder === undefined) throw new UsageError('convert llama2c needs <checkpoint.bin> <tokenizer.bin> <out-folder>', convertUsage);
    if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`, convertUsage);
    await checkOutputFolder(outFolder, values.force === true);
    // Both inputs are read and checked before anything is written: a bad one leaves no half-written folder.
    const conversion = convertLlama2cToHf(await readInput(checkpointPath!), await readInput(tokenizerPath!));
    await writeDecoderFolder(outFolder, conversion);
    await writeText(streams.stdout, await conversionReport(outFolder, conversion, tokenizerPath!, outputWidth(streams.stdout)));
    return exitCodes.success;
  },
};

import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ONNX_OPSET } from '@reward-lens/onnx-export';
import { ONNX_DATA_FILE, ONNX_MODEL_FILE, ONNX_READ_POSITIONS_FILE, type ExportModelFolderResult } from '@reward-lens/onnx-export/node';
import { formatBytes } from '../format-bytes.js';
import { wrap } from '../text-layout.js';

/** What the exported `config.json` says about the graph: the facts a user checks after an export. */
interface ExportedConfig {
  architectures?: string[];
  hidden_size?: number;
  num_hidden_layers?: number;
  vocab_size?: number;
  max_position_embeddings?: number;
  reward_lens?: {
    onnx_heads?: { name: string; kind: string; numLabels?: number; output?: string }[];
    onnx_with_past?: boolean;
    onnx_hidden_states?: boolean;
    onnx_dtype?: string;
  };
}

function graphSummary(config: ExportedConfig): { inputs: string; outputs: string } {
  const layers = config.num_hidden_layers ?? 0;
  const block = config.reward_lens ?? {};
  const cache = (prefix: string) => `${prefix}.{0..${layers - 1}}.{key,value}`;
  const width = (head: { kind: string; numLabels?: number }) => (head.kind === 'lm' ? config.vocab_size : head.kind === 'value' ? 1 : head.numLabels);
  const outputs = (block.onnx_heads ?? []).map((head) => `${head.output ?? head.name} (${head.kind} head "${head.name}", width ${width(head) ?? '?'})`);
  if (block.onnx_hidden_states === true) outputs.push(`hidden_states.{0..${layers}}`);
  const inputs = ['input_ids', 'attention_mask', 'position_ids'];
  if (block.onnx_with_past === true) {
    inputs.push(cache('past_key_values'));
    outputs.push(cache('present'));
  }
  return { inputs: inputs.join(', '), outputs: outputs.join(', ') };
}

function describeFile(path: string, config: ExportedConfig, result: ExportModelFolderResult): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dtype = config.reward_lens?.onnx_dtype;
  // A quantized export names its files after its dtype (model_q4.onnx, model_q4.onnx_data).
  const suffix = (file: string) => (dtype === undefined ? file : file.replace('.onnx', `_${dtype === 'q8' ? 'quantized' : dtype}.onnx`));
  const [modelFile, readFile] = [suffix(ONNX_MODEL_FILE), suffix(ONNX_READ_POSITIONS_FILE)];
  const dataFile = dtype === undefined ? ONNX_DATA_FILE : `${modelFile}_data`;
  const weights = dtype === undefined ? '' : `, projections as ${dtype} (MatMulNBits, onnxruntime only)`;
  if (name === modelFile) {
    const graph = `ONNX opset ${ONNX_OPSET} graph, heads at every position (transformers.js, Optimum tools)${weights}`;
    return result.externalData ? `${graph}, its weights in ${dataFile}` : `${graph}, with its weights`;
  }
  if (name === readFile) {
    const graph = `the same graph with heads computed only at read_positions.* (what reward-lens runs)${weights}`;
    return result.externalData ? `${graph}, its weights in ${dataFile}` : `${graph}, with its weights`;
  }
  if (name === dataFile) return 'the weights';
  if (name === 'generation_config.json') return 'BOS and EOS: where generation stops';
  if (name === 'config.json') {
    return (
      `${config.architectures?.join(', ') ?? 'decoder'}: hidden ${config.hidden_size}, ${config.num_hidden_layers} layers, vocabulary ${config.vocab_size}, ` +
      `${config.max_position_embeddings} positions; heads and outputs under "reward_lens"`
    );
  }
  return `copied from the model folder`;
}

/** `wrote <folder>`, then a row per file (what it is, its size), the graph's inputs and outputs, and the loader's notes. */
export async function exportReport(outFolder: string, result: ExportModelFolderResult, headsFrom: string, width: number): Promise<string> {
  const config = JSON.parse(await readFile(join(outFolder, 'config.json'), 'utf8')) as ExportedConfig;
  const rows: [string, string][] = [];
  for (const name of result.files) {
    const size = formatBytes((await stat(join(outFolder, name))).size);
    rows.push([name, `${describeFile(name, config, result)}, ${size}`]);
  }
  const { inputs, outputs } = graphSummary(config);
  rows.push(['heads', headsFrom], ['inputs', inputs], ['outputs', outputs], ...result.notes.map((note): [string, string] => ['note', note]));
  const labelWidth = Math.max(...rows.map(([label]) => label.length));
  const indent = ' '.repeat(2 + labelWidth + 2);
  const lines = rows.flatMap(([label, value]) => wrap(`  ${label.padEnd(labelWidth)}  ${value}`, width, indent));
  return `wrote ${outFolder}\n${lines.join('\n')}\n`;
}

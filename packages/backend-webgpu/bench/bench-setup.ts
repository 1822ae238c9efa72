import { defineDecoderConfig, type DecoderConfig } from '@reward-lens/spec';
import { acquireDevice, describeAdapterInfo, getNodeGpu, isSoftwareAdapter, requestWebGpuAdapter } from '../src/index.js';

/** What the command line asks for. */
export interface BenchOptions {
  /** The GPU grid: hidden 512, 8 layers, batch 1/8/32 × length 128/512/2048. */
  full: boolean;
  /** Refuse a software adapter instead of warning about it. */
  hardware: boolean;
}

export interface BenchGrid {
  config: DecoderConfig;
  batches: number[];
  lengths: number[];
  /** Timed WebGPU runs per cell, after one warm-up. */
  repeats: number;
}

export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const known = new Set(['--full', '--hardware']);
  const unknown = argv.filter((argument) => argument.startsWith('--') && argument !== '--' && !known.has(argument));
  if (unknown.length > 0) throw new BenchSetupError(`unknown option ${unknown.join(', ')}; the bench takes --full and --hardware`);
  return { full: argv.includes('--full'), hardware: argv.includes('--hardware') };
}

/** A setup the bench cannot run with: printed without a stack, exit status 1. */
export class BenchSetupError extends Error {}

const llama = (hiddenSize: number, numLayers: number, numHeads: number, numKvHeads: number, intermediateSize: number, maxPositions: number) =>
  defineDecoderConfig({
    architecture: 'llama',
    hiddenSize,
    numLayers,
    numHeads,
    numKvHeads,
    intermediateSize,
    vocabSize: 512,
    maxPositions,
    ropeTheta: 10000,
    rmsNormEps: 1e-5,
    tieWordEmbeddings: true,
    attentionBias: false,
    heads: [{ name: 'value', kind: 'value', weight: 'v_head.weight' }],
  });

export function benchGrid(options: BenchOptions, software: boolean): BenchGrid {
  if (options.full) return { config: llama(512, 8, 8, 4, 1376, 2048), batches: [1, 8, 32], lengths: [128, 512, 2048], repeats: 5 };
  return { config: llama(128, 4, 4, 2, 352, 1024), batches: software ? [1, 4] : [1, 4, 8], lengths: [64, 256], repeats: software ? 2 : 5 };
}

const hardwareHint =
  'Dawn (the "webgpu" package) looks for a Vulkan driver: install libvulkan1 and the GPU\'s Vulkan ICD ' +
  '(NVIDIA: set VK_DRIVER_FILES to its nvidia_icd.json), check with `vulkaninfo --summary`, and do not point VK_DRIVER_FILES at SwiftShader.';

/**
 * A device on a hardware adapter when one answers; otherwise, unless `hardware` is asked for,
 * on SwiftShader. The full grid would run for hours on a software adapter, so it needs hardware too.
 */
export async function pickDevice(options: BenchOptions): Promise<{ device: GPUDevice; software: boolean; description: string }> {
  let adapter: GPUAdapter | null = null;
  let reason = '';
  try {
    adapter = await requestWebGpuAdapter({ powerPreference: 'high-performance' });
    if (isSoftwareAdapter(adapter)) reason = `the only adapter is a software one (${describeAdapterInfo(adapter.info)})`;
  } catch (error) {
    // The first sentence: the rest is the package's advice for running without a GPU.
    reason = (error instanceof Error ? error.message : String(error)).split('. ')[0]!;
    adapter = null;
  }
  if (reason && (options.hardware || options.full)) {
    const flag = options.hardware ? '--hardware' : '--full (its grid would take hours on a software adapter)';
    throw new BenchSetupError(`${flag} needs a hardware WebGPU adapter, but ${reason}.\n${hardwareHint}`);
  }
  const acquired = adapter
    ? await acquireDevice({ adapter, allowSoftwareAdapter: !options.hardware })
    : await acquireDevice({ gpu: await getNodeGpu({ software: true }), allowSoftwareAdapter: true });
  return { device: acquired.device, software: acquired.software, description: describeAdapterInfo(acquired.info) };
}

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ProcessRM, createByteBpeTokenizer } from '@reward-lens/core';
import { createRandomDecoder, ModelLoadError, registerBackend, resolveBackend, type RewardLensError } from '@reward-lens/spec';
import { expectClose } from '@reward-lens/core/testing';
import { exportDecoderToOnnx } from '@reward-lens/onnx-export';
import { writeOnnxModelFolder } from '@reward-lens/onnx-export/node';
import { afterAll, describe, expect, it } from 'vitest';
import { createOnnxNodeBackend, onnxNodeBackendRegistration } from './index.js';
import { batchOf, idsOf, valueAt } from '../test/support/requests.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-onnx-node-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const model = createRandomDecoder({ seed: 31 });
const graph = exportDecoderToOnnx(model, { withPast: true, hiddenStates: true });

async function loadError(source: string | Uint8Array, options = {}): Promise<RewardLensError> {
  const error = await createOnnxNodeBackend(source, options).then(
    async (backend) => {
      await backend.dispose();
      return undefined;
    },
    (caught: unknown) => caught,
  );
  expect(ModelLoadError.isInstance(error), String(error)).toBe(true);
  return error as RewardLensError;
}

describe('loading models', () => {
  it('reports a truncated model.onnx as a ModelLoadError naming the file', async () => {
    const path = join(root, 'truncated.onnx');
    await writeFile(path, graph.subarray(0, Math.floor(graph.byteLength / 3)));
    const error = await loadError(path);
    expect(error.message).toContain(path);
    expect((error as ModelLoadError).file).toBe(path);
    expect((await loadError(graph.subarray(0, 1000))).message).toMatch(/^<in-memory ONNX model>: onnxruntime cannot load it/);
    expect((await loadError(join(root, 'absent.onnx'))).message).toContain('absent.onnx');
  });

  it('runs a graph held in memory (ProcessRM.fromFiles) with the text of its config.json, as from disk; broken bytes are named by their path', async () => {
    const unregister = registerBackend(onnxNodeBackendRegistration);
    try {
      const folder = join(root, 'in-memory');
      await writeOnnxModelFolder(folder, { model, onnx: { withPast: true } });
      const path = join(folder, 'onnx', 'model.onnx');
      const settings = { 'onnx-node': { intraOpThreads: 1 } };
      const configJson = await readFile(join(folder, 'config.json'), 'utf8');
      const bytes = new Uint8Array(await readFile(path));
      const onDisk = await resolveBackend('onnx-node', { kind: 'onnx', path, description: path }, { settings });
      const inMemory = await resolveBackend(
        'onnx-node',
        { kind: 'onnx', path: 'picked/onnx/model.onnx', bytes, configJson, description: 'picked' },
        { settings },
      );
      expect(inMemory.backend.info).toEqual(onDisk.backend.info);
      const pair = ['Compute (2+2)*3-5.', 'First, 2+2=4.\nThen, 4*3=12.\nFinally, 12-5=7.'] as const;
      const [fromDisk, fromMemory] = await Promise.all(
        [onDisk, inMemory].map((resolved) => ProcessRM.fromBackend(resolved.backend, createByteBpeTokenizer()).stepScores([pair])),
      );
      expect(Array.from(fromMemory!.value.curves[0]!)).toEqual(Array.from(fromDisk!.value.curves[0]!));
      await Promise.all([onDisk.backend.dispose(), inMemory.backend.dispose()]);

      await expect(
        resolveBackend(
          'onnx-node',
          { kind: 'onnx', path: 'picked/model.onnx', bytes: bytes.subarray(0, 1000), configJson, description: 'picked' },
          { settings },
        ),
      ).rejects.toMatchObject({ code: 'MODEL_LOAD', message: expect.stringMatching(/^picked\/model\.onnx: onnxruntime cannot load it/) });
    } finally {
      unregister();
    }
  });

  it('rejects a graph of an unknown layout, listing its inputs and outputs with shapes', async () => {
    // The same graph with `input_ids` renamed (an equal-length name keeps the protobuf valid).
    const bytes = Buffer.from(graph);
    const from = Buffer.from('input_ids');
    for (let at = bytes.indexOf(from); at !== -1; at = bytes.indexOf(from, at + 1)) bytes.write('token_ids', at);
    const error = await loadError(new Uint8Array(bytes), { config: model.config });
    expect(error.message).toContain('it has no "input_ids" input');
    expect(error.message).toContain('token_ids int64 [batch_size, sequence_length]');
    expect(error.message).toContain('past_key_values.0.key float32 [batch_size, 2, past_sequence_length, 16]');
    expect(error.message).toContain('logits float32 [batch_size, sequence_length, 512]');
  });

  it('asks for what the graph does not show when there is no config', async () => {
    const error = await loadError(exportDecoderToOnnx(model, { withPast: false, heads: ['value'] }));
    expect(error.message).toMatch(/vocabulary size is unknown.*options\.config\.vocabSize/);
  });

  it('loads both graphs of an exported folder (hub layout, shared external data), taking heads and sizes from the config.json above onnx/', async () => {
    const folder = join(root, 'folder');
    const written = await writeOnnxModelFolder(folder, { model, onnx: { withPast: true }, externalDataThresholdBytes: 0 });
    expect(written.files).toContain('onnx/model.onnx_data');
    for (const graphFile of ['model.onnx', 'model_read_positions.onnx']) await checkFolderGraph(join(folder, 'onnx', graphFile));
  });

  async function checkFolderGraph(path: string): Promise<void> {
    const fromFolder = await createOnnxNodeBackend(path, { intraOpThreads: 1 });
    const inMemory = await createOnnxNodeBackend(graph, { config: model.config, intraOpThreads: 1 });
    try {
      expect(fromFolder.info).toMatchObject({ vocabSize: 512, hiddenSize: 64, numLayers: 2, maxPositions: 1024 });
      expect(fromFolder.info.heads.map((head) => head.name)).toEqual(['value', 'classifier', 'lm']);
      expect(fromFolder.supportsCache).toBe(true);
      const request = batchOf([{ ids: idsOf(10, 1) }, { ids: idsOf(4, 2) }], valueAt);
      const fromFile = (await fromFolder.doForward(request)).reads;
      const expected = (await inMemory.doForward(request)).reads;
      fromFile.forEach((read, index) => read.values.forEach((values, row) => expectClose(values, expected[index]!.values[row]!, 1e-6, `${path}, row ${row}`)));
    } finally {
      await fromFolder.dispose();
      await inMemory.dispose();
    }
  }

  it('creates a session for the read-positions graph without onnxruntime warnings or errors (verbose log, child process)', async () => {
    const folder = join(root, 'log-check');
    await writeOnnxModelFolder(folder, { model, onnx: { withPast: true, hiddenStates: true } });
    const child = fileURLToPath(new URL('../test/support/create-session-child.ts', import.meta.url));
    const packageRoot = fileURLToPath(new URL('..', import.meta.url));
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--conditions=@reward-lens/source', child, join(folder, 'onnx', 'model_read_positions.onnx')],
      {
        cwd: packageRoot,
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const log = `${stdout}\n${stderr}`;
    expect(log).toContain('CHILD-DONE');
    // The capture works: verbose and info lines are there.
    expect(log).toMatch(/\[V:onnxruntime:/);
    expect(log).toMatch(/\[I:onnxruntime:.*Session successfully initialized/);
    const problems = log.split('\n').filter((line) => /\[(W|E|F):onnxruntime/.test(line));
    expect(problems).toEqual([]);
  });
});

describe('onnxNodeBackendRegistration', () => {
  it('runs decoder sources (exported in memory) and ONNX files', async () => {
    const unregister = registerBackend(onnxNodeBackendRegistration);
    try {
      const settings = { 'onnx-node': { intraOpThreads: 1 } };
      const fromDecoder = await resolveBackend('onnx-node', { kind: 'decoder', model, description: 'seeded weights' }, { settings });
      expect(fromDecoder.backend.info.description).toContain('exported to ONNX in memory from decoder weights');
      expect(fromDecoder.backend.supportsCache).toBe(true);
      await fromDecoder.backend.dispose();
      const path = join(root, 'registered.onnx');
      await writeFile(path, exportDecoderToOnnx(model, { withPast: false }));
      const fromFile = await resolveBackend(
        'onnx-node',
        { kind: 'onnx', path, description: path },
        { settings: { 'onnx-node': { intraOpThreads: 1, config: model.config } } },
      );
      expect(fromFile.backend.supportsCache).toBe(false);
      await fromFile.backend.dispose();
      // A broken file is a model error on every backend: resolution reports it instead of falling back.
      await writeFile(path, 'not onnx');
      await expect(resolveBackend('auto', { kind: 'onnx', path, description: path })).rejects.toMatchObject({ code: 'MODEL_LOAD' });
    } finally {
      unregister();
    }
  });
});

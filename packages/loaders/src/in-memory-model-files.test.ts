import { describe, expect, it } from 'vitest';
import { InvalidInputError, ModelLoadError } from '@reward-lens/spec';

import { modelFilesFromEntries } from './in-memory-model-files.js';
import { readExactly, readJsonFile } from './model-files.js';

const bytes = Uint8Array.from({ length: 1000 }, (_, index) => (index * 7) % 251);

describe('modelFilesFromEntries', () => {
  it('lists files and the folders their paths imply, sorted, with names normalized', async () => {
    const files = modelFilesFromEntries({ 'config.json': bytes, './onnx\\model.onnx': bytes, '/tokenizer.json': bytes }, { location: 'picked' });
    expect(await files.list()).toEqual(['config.json', 'onnx', 'onnx/model.onnx', 'tokenizer.json']);
    expect(files.describe('onnx/model.onnx')).toBe('picked/onnx/model.onnx');
    expect(files.localPath).toBeUndefined();
  });

  it('reads ranges of bytes and of Blobs alike, into a given buffer too, and short at the end of the file', async () => {
    const files = modelFilesFromEntries([
      ['a.bin', bytes],
      ['b.bin', new Blob([bytes.subarray(0, 500), bytes.subarray(500)])],
    ]);
    for (const name of ['a.bin', 'b.bin']) {
      const file = await files.open(name);
      expect(file.size).toBe(1000);
      expect(Array.from(await file.read(10, 20))).toEqual(Array.from(bytes.subarray(10, 30)));
      const into = new Uint8Array(30);
      const view = await file.read(990, 30, into);
      expect(Array.from(view)).toEqual(Array.from(bytes.subarray(990)));
      expect(view.buffer).toBe(into.buffer);
      const error = await readExactly(file, 990, 30).catch((caught: unknown) => caught);
      expect(ModelLoadError.isInstance(error)).toBe(true);
      expect((error as Error).message).toBe(`<in-memory model>/${name}: ends at byte 1000, before the 30 bytes its header promises at 990`);
      await file.close();
    }
  });

  it('names missing files, folders where files belong, and broken JSON', async () => {
    const files = modelFilesFromEntries({ 'onnx/model.onnx': bytes, 'config.json': new TextEncoder().encode('{"a": ') }, { location: 'my-prm' });
    await expect(files.open('tokenizer.json')).rejects.toThrow(/^my-prm\/tokenizer\.json: file not found$/);
    await expect(files.open('onnx')).rejects.toThrow(/^my-prm\/onnx: is a directory, not a file$/);
    await expect(readJsonFile(files, 'config.json')).rejects.toThrow(/^my-prm\/config\.json: not valid JSON/);
  });

  it('refuses paths outside the folder, duplicates after normalizing, and contents that are not bytes', () => {
    const invalid = (action: () => unknown, message: RegExp) => {
      let thrown: unknown;
      try {
        action();
      } catch (error) {
        thrown = error;
      }
      expect(InvalidInputError.isInstance(thrown), String(thrown)).toBe(true);
      expect((thrown as Error).message).toMatch(message);
    };
    invalid(() => modelFilesFromEntries({ '../secret': bytes }), /"\.\.\/secret" is not a path inside the model folder/);
    invalid(() => modelFilesFromEntries({ './': bytes }), /is not a path inside the model folder/);
    invalid(
      () =>
        modelFilesFromEntries([
          ['a/b', bytes],
          ['a//b', bytes],
        ]),
      /two files are named "a\/b"/,
    );
    invalid(() => modelFilesFromEntries({ 'config.json': '{}' as unknown as Uint8Array }), /"config\.json" is neither bytes \(Uint8Array\) nor a Blob/);
  });
});

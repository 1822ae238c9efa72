import { describe, expect, it } from 'vitest';
import { pickedFolder } from './folder-model.js';

function pickedFile(relativePath: string, content: string): File {
  const file = new File([content], relativePath.slice(relativePath.lastIndexOf('/') + 1));
  // What <input webkitdirectory> sets; Node's File has no such property of its own.
  Object.defineProperty(file, 'webkitRelativePath', { value: relativePath });
  return file;
}

describe('a picked folder', () => {
  it('names files by their path inside the folder, and the folder by its name', () => {
    const folder = pickedFolder([pickedFile('my-prm/config.json', '{}'), pickedFile('my-prm/onnx/model.onnx', 'graph')]);
    expect(folder.location).toBe('my-prm');
    expect(folder.entries.map(([name]) => name)).toEqual(['config.json', 'onnx/model.onnx']);
  });

  it('keeps plain file names when files were picked one by one', () => {
    const folder = pickedFolder([new File(['{}'], 'config.json')]);
    expect(folder).toMatchObject({ location: 'picked files', entries: [['config.json', expect.any(File)]] });
  });
});

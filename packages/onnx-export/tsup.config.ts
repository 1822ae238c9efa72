import { rewardLensBuild } from '../../tsup.shared.js';

export default rewardLensBuild(
  // The export thread's code is its own file, started by `exportFolderInWorker` from beside it.
  { index: 'src/index.ts', node: 'src/node.ts', 'folder-export-worker': 'src/folder-export-worker.ts' },
  {
    dts: { entry: { index: 'src/index.ts', node: 'src/node.ts' } },
    // CommonJS: `import.meta.url` (where the thread's file is) from __filename.
    shims: true,
    external: ['onnx-proto'],
  },
);

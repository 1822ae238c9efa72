import { rewardLensBuild } from '../../tsup.shared.js';

export default rewardLensBuild(
  // The export thread's and the quantizing threads' code are files of their own, started from beside the modules that start them.
  { index: 'src/index.ts', node: 'src/node.ts', 'folder-export-worker': 'src/folder-export-worker.ts', 'quantize-worker': 'src/quantize-worker.ts' },
  {
    dts: { entry: { index: 'src/index.ts', node: 'src/node.ts' } },
    // CommonJS: `import.meta.url` (where the thread's file is) from __filename.
    shims: true,
    external: ['onnx-proto'],
  },
);

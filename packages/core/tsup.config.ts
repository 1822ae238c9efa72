import { rewardLensBuild } from '../../tsup.shared.js';

// The package's entries (exports), each with its types.
const publicEntries = {
  index: 'src/index.ts',
  node: 'src/node.ts',
  'testing/index': 'src/testing/index.ts',
};

export default rewardLensBuild(
  {
    ...publicEntries,
    // The two targets of `#pretrained-folder` (package.json "imports"): Node's folder reader, and
    // what a browser bundle gets instead. Imported by the built code at run time, never bundled in.
    'pretrained-folder': 'src/process-rm/pretrained-folder.ts',
    'pretrained-folder-unavailable': 'src/process-rm/pretrained-folder-unavailable.ts',
  },
  { dts: { entry: publicEntries }, external: ['vitest', '#pretrained-folder'] },
);

import { rewardLensBuild } from '../../tsup.shared.js';

export default rewardLensBuild(
  { index: 'src/index.ts', node: 'src/node.ts' },
  {
    // import.meta.url (used to find uPlot in node_modules) in the CommonJS build too.
    shims: true,
    external: ['uplot'],
  },
);

import { rewardLensBuild } from '../../tsup.shared.js';

export default rewardLensBuild(
  { index: 'src/index.ts', browser: 'src/browser.ts' },
  {
    // import.meta.url locates model/ beside dist/, in the CommonJS build too.
    shims: true,
  },
);

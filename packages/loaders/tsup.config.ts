import { rewardLensBuild } from '../../tsup.shared.js';

export default rewardLensBuild({ index: 'src/index.ts', node: 'src/node.ts' });

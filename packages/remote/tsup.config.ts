import { rewardLensBuild } from '../../tsup.shared.js';

export default rewardLensBuild({ index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' });

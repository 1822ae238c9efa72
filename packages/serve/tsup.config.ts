import { rewardLensBuild } from '../../tsup.shared.js';

export default rewardLensBuild({ index: 'src/index.ts' }, { target: 'node20', platform: 'node' });

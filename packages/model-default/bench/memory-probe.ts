/** One measurement of the bench's memory table, in a process of its own: the default PRM on `argv[2]` threads scoring 1,000 records. */
import '@reward-lens/backend-tiny/register';
import { createOrganism } from '@reward-lens/organism';
import { loadDefaultPrm } from '../src/index.js';

const threads = Number(process.argv[2]);
const prm = await loadDefaultPrm({ threads });
const afterLoad = process.memoryUsage().rss;
const items = createOrganism({ seed: 1002 }).items(1000);
await prm.stepScores(items.map((item) => ({ problem: item.problem, steps: [...item.steps] })));
const afterScoring = process.memoryUsage().rss;
console.log(JSON.stringify({ threads, afterLoad, afterScoring }));
await prm.dispose();

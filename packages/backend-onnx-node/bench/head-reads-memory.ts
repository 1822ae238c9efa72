/**
 * One forward in a process of its own, to measure peak memory: `head-reads-memory.ts <graph.onnx>
 * <scenario> <copy-rows>` loads the graph, runs the scenario once (copying each row out when asked,
 * as reads were served before), and prints `{ afterLoadMiB, peakMiB }` as JSON (Linux: the
 * peak is /proc's VmHWM). Run by head-reads.ts.
 */
import { readFileSync } from 'node:fs';
import { createOnnxNodeBackend } from '../src/index.js';
import { headReadRequest, largeVocabularyConfig, type HeadReadScenario } from './head-reads-model.js';

const [graphPath, scenario, copyRows] = process.argv.slice(2) as [string, HeadReadScenario, string];
const backend = await createOnnxNodeBackend(graphPath, { config: largeVocabularyConfig, intraOpThreads: 1 });
const request = headReadRequest(scenario);
const afterLoad = process.memoryUsage().rss;
const result = await backend.doForward(request);
if (copyRows === 'copy') for (const read of result.reads) read.values = read.values.map((values) => values.slice());
// VmHWM, not resourceUsage().maxRSS: Linux keeps maxRSS across exec, so a child would report its parent's peak.
const status = readFileSync('/proc/self/status', 'utf8');
const peak = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) * 1024;
await backend.dispose();
console.log(JSON.stringify({ afterLoadMiB: afterLoad / 2 ** 20, peakMiB: peak / 2 ** 20 }));

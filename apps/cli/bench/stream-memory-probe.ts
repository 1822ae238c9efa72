/**
 * One run of `reward-lens score --file <records> --model <folder> --backend <name>` in a process of
 * its own, to measure its peak memory: `stream-memory-probe.ts <folder> <backend> <records.jsonl>`
 * prints `{ peakMiB, seconds, exitCode }` as JSON (Linux: the peak is /proc's VmHWM). Run by stream-memory.ts.
 */
import { readFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { main } from '../src/main.js';

const [folder, backend, records] = process.argv.slice(2) as [string, string, string];
const discard = () => new Writable({ write: (_chunk, _encoding, callback) => callback() });
const stderr: string[] = [];
const started = performance.now();
const exitCode = await main(['score', '--model', folder, '--backend', backend, '--file', records, '--quiet', '--json'], {
  stdin: Object.assign(Readable.from([]), { isTTY: true }),
  stdout: discard(),
  stderr: new Writable({ write: (chunk, _encoding, callback) => callback(void stderr.push(String(chunk))) }),
});
const seconds = (performance.now() - started) / 1000;
// VmHWM, not resourceUsage().maxRSS: Linux keeps maxRSS across exec, so a child would report its parent's peak.
const peak = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? Number.NaN) * 1024;
console.log(JSON.stringify({ peakMiB: peak / 2 ** 20, seconds, exitCode, stderr: stderr.join('').slice(-500) }));
process.exit(0);

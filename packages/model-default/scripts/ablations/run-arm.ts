/**
 * Trains one ablation arm (resumably) and measures it on the held-out seeds:
 *
 *   nice -n 19 pnpm exec tsx --conditions=@reward-lens/source scripts/ablations/run-arm.ts --arm baseline [--runs /work/ablate-runs]
 *
 * Checkpoints and the trained folder go to `<runs>/<arm>/train` (outside the repository); the
 * figures to `scripts/ablations/results/<arm>.json`, and the table `results/README.md` is
 * rewritten from every arm's figures. Stopped (Ctrl-C, a kill), the same command continues.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { armNamed } from './arms.js';
import { measureArm } from './measure-arm.js';
import { writeResultsTable } from './results-table.js';
import { trainArm } from './train-arm.js';
import { timed, wallSecondsOf } from './wall-clock.js';

const resultsFolder = fileURLToPath(new URL('results', import.meta.url));
const { values } = parseArgs({ options: { arm: { type: 'string' }, runs: { type: 'string', default: '/work/ablate-runs' } } });
if (values.arm === undefined) throw new Error('--arm <name> is required');
const arm = armNamed(values.arm);
const runFolder = join(values.runs, arm.name);
const trainFolder = join(runFolder, 'train');
await mkdir(trainFolder, { recursive: true });

const controller = new AbortController();
process.once('SIGINT', () => controller.abort());
process.once('SIGTERM', () => controller.abort());

const log = (line: string) => console.log(line);
log(`arm ${arm.name}: ${arm.change}`);
const state = await timed(runFolder, () => trainArm(arm, trainFolder, controller.signal, log));
log(`measuring ${arm.name} on the calibration, test and pair splits`);
const figures = await measureArm(arm, trainFolder, state, await wallSecondsOf(runFolder));
await mkdir(resultsFolder, { recursive: true });
await writeFile(join(resultsFolder, `${arm.name}.json`), `${JSON.stringify(figures, null, 2)}\n`);
await writeResultsTable(resultsFolder);
log(
  `${arm.name}: F1 ${figures.test.f1.toFixed(3)}, correct ${figures.test.correctAccuracy.toFixed(3)}, ` +
    `exact ${Object.entries(figures.test.byKind)
      .map(([kind, kindFigures]) => `${kind} ${kindFigures.exactRate.toFixed(3)}`)
      .join(', ')}; pairs ${figures.pairs.all.index.toFixed(3)}`,
);

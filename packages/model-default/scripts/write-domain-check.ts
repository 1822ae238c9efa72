/**
 * Writes the shipped calibration's vocabulary check (`domainCheck` in model/calibration.json),
 * counted on the training stream as `retrain` counts it, without retraining or recalibrating:
 * `pnpm --filter @reward-lens/model-default exec tsx --conditions=@reward-lens/source scripts/write-domain-check.ts`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import '@reward-lens/backend-tiny/register';
import { ProcessRM, validateStepCalibration } from '@reward-lens/core';
import { defaultModelRecipe } from '../src/default-model-info.js';
import { defaultRecipe } from './default-recipe.js';
import { domainCountRecords, trainingTokenDomain } from './domain-tokens.js';

const model = fileURLToPath(new URL('../model/', import.meta.url));
const path = join(model, 'calibration.json');
const calibration = validateStepCalibration(JSON.parse(await readFile(path, 'utf8')));
const prm = await ProcessRM.fromPretrained(model, { backend: 'tiny', recipe: defaultModelRecipe, threads: 1 });
const domainCheck = await trainingTokenDomain(prm, defaultRecipe, domainCountRecords);
await writeFile(path, `${JSON.stringify({ ...calibration, domainCheck }, null, 2)}\n`);
await prm.dispose();
console.log(`${path}: ${domainCheck.known.length} ranges of known token ids (${domainCheck.countedOn})`);

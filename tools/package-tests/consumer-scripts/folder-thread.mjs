// The same from the ES module builds (folder-export-worker.js, quantize-worker.js).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ProcessRM } from '@reward-lens/core';
import '@reward-lens/backend-onnx-node/register';
const folder = join(dirname(createRequire(import.meta.url).resolve('@reward-lens/model-default/package.json')), 'model');
const prm = await ProcessRM.fromPretrained(folder, { backend: 'onnx-node', dtype: 'q4' });
const scored = await prm.stepScores([{ problem: 'p', steps: ['81 bags in 3 piles is 81 ÷ 3 = 27 bags.', 'The answer is 27.'] }]);
console.log(JSON.stringify({ description: prm.backend.info.description, steps: scored.value.curves[0].length }));
await prm.dispose();

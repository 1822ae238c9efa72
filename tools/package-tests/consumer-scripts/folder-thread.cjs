// The default PRM's safetensors on onnx-node, named, at q4, from the CommonJS builds: the folder is
// read by the export thread (folder-export-worker.cjs), quantized by its threads (quantize-worker.cjs).
const { join, dirname } = require('node:path');
const { ProcessRM } = require('@reward-lens/core');
require('@reward-lens/backend-onnx-node/register');
const folder = join(dirname(require.resolve('@reward-lens/model-default/package.json')), 'model');
(async () => {
  const prm = await ProcessRM.fromPretrained(folder, { backend: 'onnx-node', dtype: 'q4' });
  const scored = await prm.stepScores([{ problem: 'p', steps: ['81 bags in 3 piles is 81 ÷ 3 = 27 bags.', 'The answer is 27.'] }]);
  console.log(JSON.stringify({ description: prm.backend.info.description, steps: scored.value.curves[0].length }));
  await prm.dispose();
})();

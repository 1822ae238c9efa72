let vitest = 'not installed';
try {
  vitest = require.resolve('vitest');
} catch {}
const kit = require('@reward-lens/core/testing');
console.log(JSON.stringify({ vitest, kit: [kit.runBackendConformance, kit.runGradientConformance, kit.nodeTestHarness].map((value) => typeof value) }));

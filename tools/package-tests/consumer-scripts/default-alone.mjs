(async () => {
  const { loadDefaultPrm } = await import('@reward-lens/model-default');
  const prm = await loadDefaultPrm();
  const evidence = await prm.stepScores([
    { problem: 'Lena has 4 boxes of 3 pens. How many pens does Lena have?', steps: ['4 boxes of 3 pens is 4 × 3 = 12 pens.', 'The answer is 12.'] },
  ]);
  console.log(JSON.stringify({ backend: prm.backend.name, steps: evidence.value.curves[0].length }));
  await prm.dispose();
})();

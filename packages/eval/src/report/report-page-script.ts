import { pageKitScript } from './page-kit-script.js';

/**
 * The script inside the report: reads the embedded JSON and draws every figure with uPlot. Plain
 * ES2017, no template literals, so it can live in a string. Each figure is a
 * `<figure data-figure="name" data-series="n">` that gets `data-drawn="true"` once uPlot has
 * drawn it; the body gets `data-figures` (how many) or `data-report-error`.
 */
const reportDrawings = String.raw`
  function drawProcessBench(evaluation) {
    var metrics = evaluation.metrics;
    var grid = section('ProcessBench', 'Prediction: the first step scoring below the threshold (' + fixed(evaluation.threshold.value, 4) + ', ' + evaluation.threshold.source + '); F1 is the harmonic mean of the accuracy on erroneous and on correct solutions, as ProcessBench defines it. AUROC is threshold-free: correct steps against first-erroneous steps.');
    table(grid, 'processbench-metrics', ['metric', 'value'], [
      ['solutions', evaluation.items],
      ['accuracy on erroneous (' + metrics.erroneousItems + ')', percent(metrics.errorAccuracy)],
      ['accuracy on correct (' + metrics.correctItems + ')', percent(metrics.correctAccuracy)],
      ['F1', percent(metrics.f1)],
      ['step AUROC (' + evaluation.auroc.positives + ' vs ' + evaluation.auroc.negatives + ')', fixed(evaluation.auroc.auroc)],
    ]);
    var confusion = metrics.confusion;
    table(grid, 'confusion-table', ['labelled \\ predicted', 'the labelled step', 'an earlier step', 'a later step', 'no step (-1)'], [
      ['erroneous solutions', confusion.erroneous.exact, confusion.erroneous.early, confusion.erroneous.late, confusion.erroneous.missed],
      ['correct solutions', '-', confusion.correct.falseAlarm + ' (any step)', '-', confusion.correct.clean],
    ]);

    var curves = section('Step-score curves', 'The first solutions of the split: each step\'s score, the threshold, the labelled first error and the predicted one (first step below the threshold).');
    evaluation.curves.slice(0, 12).forEach(function (curve, index) {
      var steps = curve.stepScores.map(function (_, step) { return step + 1; });
      chart(curves, {
        name: 'step-curve', width: 360, height: 220,
        title: curve.id + (curve.label === -1 ? ' (no error)' : ' (error at step ' + (curve.label + 1) + ')'),
        x: { label: 'step', values: steps, range: [0.5, steps.length + 0.5] },
        y: { label: 'score' },
        series: [
          { label: 'score', values: curve.stepScores },
          { label: 'threshold', kind: 'dash', values: steps.map(function () { return evaluation.threshold.value; }), color: '#4a5364' },
          { label: 'labelled error', kind: 'points', size: 14, values: curve.stepScores.map(function (score, step) { return step === curve.label ? score : null; }), color: '#e4572e' },
          { label: 'predicted', kind: 'points', size: 7, values: curve.stepScores.map(function (score, step) { return step === curve.prediction ? score : null; }), color: '#f3a712' },
        ],
      });
    });

    var drift = evaluation.drift;
    var driftGrid = section('Outcome drift: where the lowest step falls', 'Relative position of the lowest-scoring step (0: first step, 1: last) over ' + drift.items + ' solutions of two or more steps. Last step: ' + percent(drift.lastStepFraction) + ' (' + percent(drift.lastStepFractionByChance) + ' by chance). Lowest step at the labelled error: ' + percent(drift.argminAtLabel.fraction) + ' of ' + drift.argminAtLabel.items + '.');
    if (drift.warning) driftGrid.appendChild(el('p', { class: 'warning', 'data-warning': 'outcome-drift' }, [drift.warning]));
    chart(driftGrid, {
      name: 'argmin-histogram', title: 'Position of the lowest step score',
      x: { label: 'relative position', values: drift.histogram.map(function (bin) { return (bin.from + bin.to) / 2; }), range: [0, 1] },
      y: { label: 'solutions' },
      series: [{ label: 'solutions', kind: 'bars', values: drift.histogram.map(function (bin) { return bin.count; }) }],
    });

    if (evaluation.bestOfN) drawBestOfN(evaluation.bestOfN, 'Best-of-N over repeated problems', evaluation.bestOfN.problems + ' problems with several solutions: the pick of each rule, averaged over random subsets of size N. "outcome" is the outcome-only baseline (the last step\'s score).', 'bon');

    drawReliability(evaluation.reliability.before, evaluation.reliability.after, 'scored split', evaluation.reliability.reading);
  }

  function drawReliability(before, after, where, reading) {
    var caption = 'Labelled steps (' + before.count + ') of the ' + where + ': accuracy against mean predicted probability per bin (' + before.binning + '). Raw scores read as probabilities ' + (reading === 'sigmoid' ? 'through a sigmoid (a raw value head)' : 'as they are') + '. ECE before: ' + fixed(before.ece) + (after ? ', after calibration: ' + fixed(after.ece) : '') + '.';
    var grid = section('Calibration: reliability diagram', caption);
    var centres = before.bins.map(function (bin) { return (bin.from + bin.to) / 2; });
    var series = [
      { label: 'perfect', kind: 'dash', values: centres, color: '#4a5364' },
      { label: 'before (ECE ' + fixed(before.ece) + ')', kind: 'points', values: before.bins.map(function (bin) { return bin.accuracy; }), color: '#e4572e' },
    ];
    if (after) series.push({ label: 'after (ECE ' + fixed(after.ece) + ')', kind: 'points', values: after.bins.map(function (bin) { return bin.accuracy; }), color: '#17a398' });
    chart(grid, { name: 'reliability-diagram', title: 'Reliability', x: { label: 'predicted probability (bin)', values: centres, range: [0, 1] }, y: { label: 'fraction correct', range: [0, 1] }, series: series });
    table(grid, 'reliability-table', ['bin', 'steps', 'confidence', 'accuracy'].concat(after ? ['steps after', 'confidence after', 'accuracy after'] : []), before.bins.map(function (bin, index) {
      var row = [fixed(bin.from, 1) + '-' + fixed(bin.to, 1), bin.count, fixed(bin.confidence), fixed(bin.accuracy)];
      if (after) row = row.concat([after.bins[index].count, fixed(after.bins[index].confidence), fixed(after.bins[index].accuracy)]);
      return row;
    }));
  }

  function drawBestOfN(curves, title, caption, prefix) {
    var grid = section(title, caption);
    var metrics = [['finalAccuracy', 'final-answer accuracy'], ['processCorrect', 'process correct (right answer, no flawed step)']];
    metrics.forEach(function (metric) {
      chart(grid, {
        name: prefix + '-' + metric[0], title: metric[1] + ' vs N',
        x: { label: 'N', values: curves.ns, log: logTwo(curves.ns) },
        y: { label: metric[0] === 'finalAccuracy' ? 'final accuracy' : 'process correct' },
        series: curves.rules.map(function (rule) {
          return { label: rule, values: curves.ns.map(function (n) { return curves.points.filter(function (point) { return point.n === n && point.rule === rule; })[0][metric[0]]; }) };
        }),
      });
    });
  }

  function drawPrmBench(run) {
    var types = Object.keys(run.metrics.byType);
    var grid = section('PRMBench: step-level detection per error type', 'A step is predicted valid when its score is above ' + fixed(run.threshold.value, 4) + ' (' + run.threshold.source + '), as PRMBench does. PRMScore = (F1 of valid steps + F1 of erroneous steps) / 2. Verification index (original vs modified solution at the first modified step): ' + percent(run.verification.index) + ' of ' + run.verification.pairs + ' pairs (95% CI ' + percent(run.verification.interval.low) + '-' + percent(run.verification.interval.high) + ').');
    var rows = types.map(function (type) {
      var metrics = run.metrics.byType[type];
      return [type, metrics.samples, metrics.steps, fixed(metrics.prmScore), fixed(metrics.f1), fixed(metrics.negativeF1), fixed(metrics.correctStepAccuracy), fixed(metrics.wrongStepAccuracy), fixed(metrics.firstErrorAccuracy)];
    });
    var total = run.metrics.total;
    rows.push(['total (errors)', total.samples, total.steps, fixed(total.prmScore), fixed(total.f1), fixed(total.negativeF1), fixed(total.correctStepAccuracy), fixed(total.wrongStepAccuracy), fixed(total.firstErrorAccuracy)]);
    table(grid, 'prmbench-table', ['type', 'samples', 'steps', 'PRMScore', 'F1', 'negative F1', 'correct-step acc.', 'wrong-step acc.', 'first-error acc.'], rows);
    chart(grid, {
      name: 'prmbench-types', title: 'PRMScore and wrong-step accuracy by error type', width: 760, height: 320,
      x: { label: 'error type', values: types.map(function (_, index) { return index; }), categories: types },
      y: { label: 'score', range: [0, 1] },
      series: [
        { label: 'PRMScore', kind: 'points', values: types.map(function (type) { return run.metrics.byType[type].prmScore; }) },
        { label: 'wrong-step accuracy', kind: 'points', values: types.map(function (type) { return run.metrics.byType[type].wrongStepAccuracy; }) },
      ],
    });
  }

  function drawSimulations(simulations) {
    if (simulations.mcLabels) drawMcLabels(simulations);
    if (simulations.bestOfN) drawToyBestOfN(simulations);
  }

  function drawMcLabels(simulations) {
    var rows = simulations.mcLabels;
    var cs = rows.map(function (row) { return row.c; }).filter(function (c, index, all) { return all.indexOf(c) === index; });
    var ns = rows.filter(function (row) { return row.c === cs[0]; }).map(function (row) { return row.n; });
    var grid = section('Toy experiment: how good are Monte-Carlo labels? (seed ' + simulations.seed + ')', '8-step solutions, each step correct with probability c; a completion from a clean prefix ending at step k succeeds with probability c^(8-k), from a prefix with an error with probability 0.1. Hard MC rule: a step is labelled correct when any of N rollouts succeeds.');
    [['accuracy', 'label accuracy'], ['falseCorrect', 'false "correct" rate (among wrong steps)'], ['falseWrong', 'false "wrong" rate (among correct steps)']].forEach(function (metric) {
      chart(grid, {
        name: 'mc-' + metric[0], title: metric[1], width: 380, height: 260,
        x: { label: 'rollouts N', values: ns, log: true },
        y: { label: metric[0] === 'accuracy' ? 'accuracy' : 'rate', range: [0, 1] },
        series: cs.map(function (c) { return { label: 'c = ' + c, values: rows.filter(function (row) { return row.c === c; }).map(function (row) { return row[metric[0]]; }) }; }),
      });
    });
    table(grid, 'mc-table', ['c', 'N', 'accuracy', 'false "correct"', 'false "wrong"'], rows.map(function (row) { return [row.c, row.n, fixed(row.accuracy), fixed(row.falseCorrect), fixed(row.falseWrong)]; }));
  }

  function drawToyBestOfN(simulations) {
    var toy = simulations.bestOfN;
    drawBestOfN(toy.curves, 'Toy experiment: aggregation in best-of-16 (seed ' + simulations.seed + ')', 'Solutions of 4-16 steps, each step wrong with probability 0.1; a flawed solution keeps a right answer with probability 0.15. Simulated PRM: sigmoid(+1.5 before the first error, -0.5 from it on, + N(0, 1.5^2)); simulated ORM: +1.5 for a right answer, -0.5 otherwise, plus the same noise.', 'toy-bon');
    var toyGrid = main.lastChild;
    table(toyGrid, 'toy-bon-table', ['rule', 'final accuracy', 'process correct', 'mean steps'], toy.rows.map(function (row) { return [row.rule, fixed(row.finalAccuracy), fixed(row.processCorrect), fixed(row.meanSteps, 2)]; }).concat([['(sampled)', '', '', fixed(toy.meanSampledSteps, 2)]]));
    chart(toyGrid, {
      name: 'toy-bon-steps', title: 'Mean steps of the picked solution (N = 16)',
      x: { label: 'rule', values: toy.rows.map(function (_, index) { return index; }), categories: toy.rows.map(function (row) { return row.rule; }) },
      y: { label: 'steps', range: [0, 16] },
      series: [
        { label: 'picked', kind: 'bars', values: toy.rows.map(function (row) { return row.meanSteps; }) },
        { label: 'sampled', kind: 'dash', values: toy.rows.map(function () { return toy.meanSampledSteps; }), color: '#4a5364' },
      ],
    });
  }

  run(function () {
    if (data.processBench) drawProcessBench(data.processBench);
    if (data.calibration && data.calibration.heldOut) {
      var fitted = data.calibration.fitted;
      main.appendChild(el('p', { class: 'caption' }, ['Calibration (' + fitted.map.method + ') fitted on "' + fitted.set.name + '" (' + fitted.set.labelledSteps + ' labelled steps, domain: ' + fitted.set.domain + '); the reliability above is measured on the scored split, which it was not fitted on.']));
    }
    if (data.prmBench) drawPrmBench(data.prmBench);
    if (data.simulations) drawSimulations(data.simulations);
  });
`;

export const reportPageScript = `(function () {\n${pageKitScript}${reportDrawings}})();\n`;

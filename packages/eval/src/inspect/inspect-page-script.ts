import { pageKitScript } from '../report/page-kit-script.js';

/**
 * The inspect page's drawing, on the page kit: the layer × step heatmap (a table of coloured
 * cells, `readout-heatmap`), the per-layer step curves (uPlot, `layer-curves`), each step's
 * attributions over the text (`attribution`, spans coloured by the chosen method) with the top
 * tokens (`top-tokens`), and the probe battery when there is one (`probe-accuracy`, `probe-auroc`,
 * `probe-table`).
 */
const inspectDrawings = String.raw`
  var low = [228, 87, 46], high = [47, 111, 223], mid = [247, 247, 247];
  function mix(a, b, t) { return 'rgb(' + a.map(function (value, index) { return Math.round(value + (b[index] - value) * t); }).join(',') + ')'; }
  // t in [-1, 1]: -1 low colour, 0 white, 1 high colour.
  function diverging(t) { return t < 0 ? mix(mid, low, Math.min(1, -t)) : mix(mid, high, Math.min(1, t)); }

  function drawReadout(readout, steps) {
    var values = [].concat.apply([], readout.scores).filter(function (value) { return value !== null; });
    var lowest = readout.scoreKind === 'probability' ? 0 : Math.min.apply(null, values);
    var highest = readout.scoreKind === 'probability' ? 1 : Math.max.apply(null, values);
    var centre = (lowest + highest) / 2, half = (highest - lowest) / 2 || 1;
    var grid = section('Reward head after every layer', 'The model\'s reward head (final norm included) applied to the hidden state after each layer, read at each step\'s read position; the last row is the model\'s own step scores. Colour: ' + (readout.scoreKind === 'probability' ? 'the probability, 0 (orange) to 1 (blue)' : 'the raw score within this matrix\'s range, ' + fixed(lowest, 3) + ' (orange) to ' + fixed(highest, 3) + ' (blue)') + '.');
    var head = el('tr', {}, [el('th', {}, ['layer \\ step'])].concat(steps.map(function (_, step) { return el('th', {}, [String(step + 1)]); })));
    var rows = readout.layers.map(function (layer, layerIndex) {
      return el('tr', {}, [el('th', {}, [String(layer)])].concat(readout.scores[layerIndex].map(function (value, step) {
        var cell = el('td', { 'data-layer': String(layer), 'data-step': String(step), title: 'layer ' + layer + ', step ' + (step + 1) + ': ' + fixed(value, 4) }, [fixed(value, 3)]);
        if (value !== null) cell.style.background = diverging((value - centre) / half);
        return cell;
      })));
    });
    figureDrawn(grid.appendChild(el('table', { class: 'heatmap', 'data-figure': 'readout-heatmap', 'data-rows': String(readout.layers.length), 'data-columns': String(steps.length) }, [head].concat(rows))));
    chart(grid, {
      name: 'layer-curves', title: 'Each step\'s score by layer',
      x: { label: 'layer', values: readout.layers, integers: true },
      y: { label: readout.scoreKind === 'probability' ? 'P(correct)' : 'score' },
      series: steps.map(function (_, step) { return { label: 'step ' + (step + 1), values: readout.scores.map(function (row) { return row[step]; }) }; }),
    });
  }

  function drawAttribution(attribution, text, steps) {
    var methods = { integratedGradients: 'integrated gradients (' + attribution.integrationSteps + ' points, ' + attribution.baseline + ' baseline)', gradientTimesInput: 'gradient × input' };
    var grid = section('Token attribution', 'Each step\'s score explained by the tokens before its read position (later tokens cannot move it: attention is causal). Blue raises the score, orange lowers it; each step is coloured on its own scale. Integrated gradients add up to the score minus the baseline\'s score (the check below says how closely).');
    var picker = el('select', { 'data-control': 'attribution-method' }, Object.keys(methods).map(function (key) { return el('option', { value: key }, [methods[key]]); }));
    grid.appendChild(el('label', { class: 'control' }, ['colour by ', picker]));
    var blocks = attribution.steps.map(function (explained) {
      var spans = explained.tokens.map(function (token) {
        return el('span', { class: 'token', 'data-index': String(token.index), 'data-ig': String(token.integratedGradients), 'data-gxi': String(token.gradientTimesInput), title: 'IG ' + fixed(token.integratedGradients, 4) + ', G×I ' + fixed(token.gradientTimesInput, 4) }, [token.text]);
      });
      var rest = text.slice(explained.tokens.length ? explained.tokens[explained.tokens.length - 1].charSpan[1] : 0);
      var caption = 'step ' + (explained.step + 1) + ' (score ' + fixed(explained.score, 4) + '): IG sum ' + fixed(explained.integration.sum, 4) + ' vs score − baseline ' + fixed(explained.integration.scoreAtInput - explained.integration.scoreAtBaseline, 4);
      var block = el('figure', { class: 'attribution', 'data-figure': 'attribution', 'data-step': String(explained.step), 'data-tokens': String(spans.length) }, [el('div', { class: 'text' }, spans.concat([el('span', { class: 'after' }, [rest])])), el('figcaption', {}, [caption])]);
      grid.appendChild(block);
      return { block: block, spans: spans };
    });
    function colour(method) {
      var key = method === 'gradientTimesInput' ? 'data-gxi' : 'data-ig';
      blocks.forEach(function (entry) {
        var values = entry.spans.map(function (span) { return Number(span.getAttribute(key)); });
        var scale = Math.max.apply(null, values.map(Math.abs)) || 1;
        entry.spans.forEach(function (span, index) { span.style.background = diverging(values[index] / scale); });
      });
    }
    picker.addEventListener('change', function () { colour(picker.value); });
    colour('integratedGradients');
    blocks.forEach(function (entry) { figureDrawn(entry.block); });
    var rows = [];
    attribution.steps.forEach(function (explained) {
      ['integratedGradients', 'gradientTimesInput'].forEach(function (key) {
        rows.push(['step ' + (explained.step + 1) + ', ' + (key === 'integratedGradients' ? 'IG' : 'G×I')].concat(explained.top[key].map(function (token) { return JSON.stringify(token.text) + ' ' + fixed(token[key], 4); })));
      });
    });
    figureDrawn(table(grid, 'top-tokens', ['step, method', 'top tokens (value)'], rows));
  }

  function drawProbes(probes) {
    var grid = section('Which layers carry the step-correctness signal', 'A linear probe per layer on the hidden state at each labelled step (' + probes.data + '): fitted on ' + probes.fitting.steps + ' steps of ' + probes.fitting.solutions + ' solutions, measured on ' + probes.heldOut.steps + ' held-out steps of ' + probes.heldOut.solutions + ' other solutions (seed ' + probes.seed + '), beside the model\'s reward head read after the same layer (its threshold chosen on the fitting split). Always answering the majority label scores ' + percent(probes.majorityAccuracy) + '.');
    var layers = probes.layers.map(function (row) { return row.layer; });
    chart(grid, {
      name: 'probe-accuracy', title: 'Held-out accuracy by layer', x: { label: 'layer', values: layers, integers: true }, y: { label: 'accuracy', range: [0, 1] },
      series: [
        { label: 'linear probe', values: probes.layers.map(function (row) { return row.probe.accuracy; }) },
        { label: 'reward head', values: probes.layers.map(function (row) { return row.head.accuracy; }) },
        { label: 'majority', kind: 'dash', values: layers.map(function () { return probes.majorityAccuracy; }), color: '#4a5364' },
      ],
    });
    chart(grid, {
      name: 'probe-auroc', title: 'Held-out AUROC by layer', x: { label: 'layer', values: layers, integers: true }, y: { label: 'AUROC', range: [0, 1] },
      series: [
        { label: 'linear probe', values: probes.layers.map(function (row) { return row.probe.auroc; }) },
        { label: 'reward head', values: probes.layers.map(function (row) { return row.head.auroc; }) },
        { label: 'chance', kind: 'dash', values: layers.map(function () { return 0.5; }), color: '#4a5364' },
      ],
    });
    table(grid, 'probe-table', ['layer', 'probe accuracy', 'probe AUROC', 'head accuracy', 'head AUROC', 'head threshold'], probes.layers.map(function (row) {
      return [row.layer, percent(row.probe.accuracy), fixed(row.probe.auroc), percent(row.head.accuracy), fixed(row.head.auroc), fixed(row.head.threshold, 4)];
    }));
  }

  run(function () {
    main.appendChild(el('p', { class: 'problem' }, ['Problem: ' + data.problem]));
    drawReadout(data.readout, data.steps);
    if (data.attribution) drawAttribution(data.attribution, data.text, data.steps);
    if (data.probes) drawProbes(data.probes);
  });
`;

export const inspectPageScript = `(function () {\n${pageKitScript}${inspectDrawings}})();\n`;

/** The inspect page's styles beside the report's. */
export const inspectStylesheet = `
table.heatmap td { min-width: 48px; text-align: center; }
.attribution .text { font: 14px/1.9 ui-monospace, SFMono-Regular, Menlo, monospace; white-space: pre-wrap; max-width: 1100px; }
.attribution .token { border-radius: 2px; }
.attribution .after { color: #9aa3b2; }
label.control { display: block; width: 100%; }
p.problem { max-width: 1100px; }
`;

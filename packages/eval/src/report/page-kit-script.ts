/**
 * The helpers every page script shares (the evaluation report, the inspect page): plain ES2017,
 * no template literals, so a page's script is this kit and its own drawing inside one function.
 * It reads the page's JSON (`#report-data`) into `data`, draws into `#report`, and gives `el`,
 * `fixed`, `percent`, `section`, `table`, `chart` (uPlot) and `run`: each figure is a
 * `[data-figure]` element that gets `data-drawn="true"` once drawn (`figureDrawn`), and `run(draw)`
 * sets the body's `data-figures` (how many) or `data-report-error`.
 */
export const pageKitScript = String.raw`
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var main = document.getElementById('report');
  var palette = ['#2f6fdf', '#e4572e', '#17a398', '#f3a712', '#8e44ad', '#4a5364', '#c0392b'];
  var drawn = 0;

  function el(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (key) { node.setAttribute(key, attributes[key]); });
    (children || []).forEach(function (child) { node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child); });
    return node;
  }
  function fixed(value, digits) { return value === null || value === undefined ? 'n/a' : Number(value).toFixed(digits === undefined ? 3 : digits); }
  function percent(value) { return value === null || value === undefined ? 'n/a' : (100 * value).toFixed(1) + '%'; }
  function section(title, caption) {
    main.appendChild(el('h2', {}, [title]));
    if (caption) main.appendChild(el('p', { class: 'caption' }, [caption]));
    var grid = el('div', { class: 'grid' });
    main.appendChild(grid);
    return grid;
  }
  function table(parent, name, header, rows) {
    var head = el('tr', {}, header.map(function (cell) { return el('th', {}, [String(cell)]); }));
    var body = rows.map(function (row) { return el('tr', {}, row.map(function (cell, index) { return el(index === 0 ? 'th' : 'td', {}, [String(cell)]); })); });
    var node = el('table', { 'data-figure': name, 'data-rows': String(rows.length) }, [head].concat(body));
    parent.appendChild(node);
    return node;
  }
  function logTwo(values) { return values.length > 2 && values.every(function (value) { return value > 0 && (value & (value - 1)) === 0; }); }

  // spec: { name, title, caption, x: { label, values, log, categories, integers }, y: { label, range }, series: [{ label, values, kind: 'line'|'points'|'bars'|'dash' }] }
  function chart(parent, spec) {
    var figure = el('figure', { 'data-figure': spec.name, 'data-series': String(spec.series.length) });
    var holder = el('div');
    figure.appendChild(holder);
    if (spec.caption) figure.appendChild(el('figcaption', {}, [spec.caption]));
    parent.appendChild(figure);
    var series = [{ label: spec.x.label }];
    spec.series.forEach(function (entry, index) {
      var color = entry.color || palette[index % palette.length];
      var options = { label: entry.label, stroke: color, width: 2, spanGaps: false };
      if (entry.kind === 'points') {
        options.paths = function () { return null; };
        options.points = { show: true, size: entry.size || 9, fill: color, stroke: color };
      } else if (entry.kind === 'bars') {
        options.paths = uPlot.paths.bars({ size: [0.8, 80] });
        options.fill = color + '99';
        options.points = { show: false };
      } else if (entry.kind === 'dash') {
        options.dash = [6, 4];
        options.width = 1.5;
        options.points = { show: false };
      } else {
        options.points = { show: true, size: 5 };
      }
      series.push(options);
    });
    var xScale = { time: false };
    if (spec.x.log) { xScale.distr = 3; xScale.log = 2; }
    if (spec.x.range) xScale.range = spec.x.range;
    var yScale = {};
    if (spec.y.range) yScale.range = spec.y.range;
    var xAxis = { label: spec.x.label };
    // Whole-number axes (layers, steps) get ticks on whole numbers only.
    if (spec.x.integers) xAxis.incrs = [1, 2, 5, 10, 20, 50, 100];
    if (spec.x.categories) {
      xAxis.splits = function () { return spec.x.categories.map(function (_, index) { return index; }); };
      xAxis.values = function (self, ticks) { return ticks.map(function (tick) { return spec.x.categories[tick] || ''; }); };
      xAxis.rotate = -30;
      xAxis.size = 70;
      xScale.range = [-0.5, spec.x.categories.length - 0.5];
    }
    var options = {
      title: spec.title,
      width: spec.width || 560,
      height: spec.height || 280,
      scales: { x: xScale, y: yScale },
      axes: [xAxis, { label: spec.y.label }],
      series: series,
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false } },
    };
    var columns = [spec.x.values].concat(spec.series.map(function (entry) { return entry.values; }));
    new uPlot(options, columns, holder);
    return figureDrawn(figure);
  }
  function figureDrawn(node) {
    node.setAttribute('data-drawn', 'true');
    drawn++;
    return node;
  }
  function run(draw) {
    try {
      draw();
      document.body.setAttribute('data-figures', String(drawn));
    } catch (error) {
      document.body.setAttribute('data-report-error', String(error && error.stack || error));
      throw error;
    }
  }


`;

import { formatScore, type BarScale } from '../scoring/bar-scale.js';
import { svgElement } from './element.js';

const width = 560;
const height = 180;
const margin = { left: 64, right: 16, top: 14, bottom: 30 };

/**
 * The curve of step scores as an SVG line: one point per step, the lowest marked, the labelled
 * first error (when known) ringed. `role="img"` with the values spelled out for screen readers.
 */
export function stepCurve(scores: readonly number[], lowest: number, firstError: number, scale: BarScale): SVGElement {
  const innerWidth = width - margin.left - margin.right;
  const innerHeight = height - margin.top - margin.bottom;
  const x = (index: number) => margin.left + (scores.length === 1 ? innerWidth / 2 : (index / (scores.length - 1)) * innerWidth);
  const y = (score: number) => margin.top + (1 - scale.fraction(score)) * innerHeight;
  const described = scores.map((score, index) => `step ${index + 1}: ${formatScore(score)}`).join(', ');
  const svg = svgElement('svg', {
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': `Step scores from step 1 to step ${scores.length}: ${described}. ${lowest >= 0 ? `Lowest: step ${lowest + 1}.` : 'No step has a score.'}`,
    class: 'curve',
  });
  for (const [value, label] of [
    [scale.high, formatScore(scale.high)],
    [scale.low, formatScore(scale.low)],
  ] as const) {
    svg.append(svgElement('line', { x1: margin.left, x2: width - margin.right, y1: y(value), y2: y(value), class: 'curve-grid' }));
    svg.append(svgElement('text', { x: margin.left - 8, y: y(value) + 4, 'text-anchor': 'end', class: 'curve-axis' }, label));
  }
  // Steps without a score (cut off by truncation) get their axis label and no point.
  const points = scores.flatMap((score, index) => (Number.isFinite(score) ? [`${x(index)},${y(score)}`] : []));
  svg.append(svgElement('polyline', { points: points.join(' '), class: 'curve-line' }));
  scores.forEach((score, index) => {
    svg.append(svgElement('text', { x: x(index), y: height - 10, 'text-anchor': 'middle', class: 'curve-axis' }, String(index + 1)));
    if (!Number.isFinite(score)) return;
    if (index === firstError) svg.append(svgElement('circle', { cx: x(index), cy: y(score), r: 9, class: 'curve-labelled' }));
    svg.append(
      svgElement('circle', { cx: x(index), cy: y(score), r: index === lowest ? 6 : 4, class: index === lowest ? 'curve-point lowest' : 'curve-point' }),
    );
  });
  return svg;
}

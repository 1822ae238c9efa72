import { kernelBindings } from './kernel-prelude.js';
import { enableFor, weightBindings, weightReaders, weightValue, type WeightType } from './shader-types.js';

/**
 * A plain matmul (`linear`: store or add to the output, with an optional bias, chosen per call)
 * or a SwiGLU one that multiplies by two weight matrices at once: `silu(x·Gᵀ) * (x·Uᵀ)`.
 * Two shaders, not one per combination: compiling is slow on software adapters.
 */
export type MatmulKind = 'linear' | 'swiglu';

export interface MatmulVariant {
  weightType: WeightType;
  kind: MatmulKind;
}

/** Threads per side of a workgroup; each computes a MICRO×MICRO block of outputs. */
const THREADS_PER_SIDE = 8;
const MICRO = 4;
/** Output rows and columns per workgroup. */
export const MATMUL_TILE = THREADS_PER_SIDE * MICRO;

export function matmulKey(variant: MatmulVariant): string {
  return `matmul-${variant.kind}-${variant.weightType}`;
}

/**
 * `out[rows, columns] (=|+=) x[rows, depth] · w[columns, depth]ᵀ (+ bias)`, with `w` stored
 * `[out, in]` as PyTorch stores it.
 *
 * Each 8×8 workgroup computes a 32×32 output tile; each thread a 4×4 micro-tile of outputs,
 * strided by 8 (so neighbouring threads read neighbouring shared-memory words). Per step the
 * workgroup stages a 32×depth slice of `x` and of `w` (32 deep, 16 for SwiGLU's two weight
 * matrices), transposed so that the inner loop reads 4 values of each and does 16
 * multiply-adds on scalars the compiler keeps in registers. Few threads and few barriers per
 * tile: on software adapters every barrier switches between coroutines, so the barrier count,
 * not the arithmetic, sets the speed there (a larger micro-tile runs faster on SwiftShader but
 * takes it ten times longer to compile).
 *
 * Every output is one f32 sum over `k` in ascending order, with out-of-range operands loaded
 * as zeros, so a row's result does not depend on the tile it lands in or on the other rows:
 * per-row independence, which the backend relies on for padding invariance.
 *
 * Parameters: `rows, columns, depth, xOffset, outOffset` (offsets in elements), then for
 * `linear` `accumulate` (1: add to the output, a residual connection), `hasBias` and `relu`
 * (1: `max(0, x·wᵀ + bias)`, a head's ReLU hidden layer, fused into the store).
 * Bindings: params, x, out, then for `linear` `bias` (bind any f32 buffer when `hasBias` is 0)
 * and `w`, for `swiglu` the gate `w` and the up-projection `w2`; each weight buffer followed by
 * its scales for q8 and q4 (`weightBindings`).
 */
export function matmulShader(variant: MatmulVariant): string {
  const { weightType } = variant;
  const swiglu = variant.kind === 'swiglu';
  const tileDepth = swiglu ? 16 : 32;
  const threads = THREADS_PER_SIDE * THREADS_PER_SIDE;
  const load = (name: string) => weightValue(weightType, name, 'column * depth + k', 'column');
  const when = (condition: boolean, text: string) => (condition ? text : '');
  // The micro-tile is spelled out in scalars (no private arrays): compilers keep them in
  // registers, where an indexed array can end up in memory (software adapters always do that).
  const cells: [number, number][] = [];
  for (let i = 0; i < MICRO; i++) for (let j = 0; j < MICRO; j++) cells.push([i, j]);
  const lines = (make: (index: number) => string, count = MICRO) => Array.from({ length: count }, (_, index) => make(index)).join('\n      ');
  const declare = cells.map(([i, j]) => `var acc${i}_${j} = 0.0;${swiglu ? ` var up${i}_${j} = 0.0;` : ''}`).join('\n  ');
  const multiply = cells
    .map(([i, j]) => `acc${i}_${j} = acc${i}_${j} + a${i} * b${j};${swiglu ? ` up${i}_${j} = up${i}_${j} + a${i} * c${j};` : ''}`)
    .join('\n      ');
  const storeCell = ([i, j]: [number, number]) => {
    const guard = `if (row${i} < params.rows && column${j} < params.columns)`;
    const at = `params.outOffset + row${i} * params.columns + column${j}`;
    if (swiglu) return `${guard} { let gate = acc${i}_${j}; out[${at}] = gate / (1.0 + exp(-gate)) * up${i}_${j}; }`;
    return `${guard} { store(${at}, column${j}, acc${i}_${j}); }`;
  };
  return `${enableFor(weightType)}
${kernelBindings(
  'rows: u32, columns: u32, depth: u32, xOffset: u32, outOffset: u32, accumulate: u32, hasBias: u32, relu: u32',
  swiglu
    ? `x: f32, out: read_write f32, ${weightBindings(weightType, 'w')}, ${weightBindings(weightType, 'w2')}`
    : `x: f32, out: read_write f32, bias: f32, ${weightBindings(weightType, 'w')}`,
)}
${swiglu ? weightReaders(weightType, 'w', 'w2') : weightReaders(weightType, 'w')}

const TILE = ${MATMUL_TILE}u;
const TILE_DEPTH = ${tileDepth}u;
const THREADS = ${THREADS_PER_SIDE}u;
const LOADS = ${(MATMUL_TILE * tileDepth) / threads}u;

// [k][row] and [k][column]: the inner loop reads along the tile, not along k.
var<workgroup> xTile: array<f32, ${MATMUL_TILE * tileDepth}>;
var<workgroup> wTile: array<f32, ${MATMUL_TILE * tileDepth}>;
${when(swiglu, `var<workgroup> upTile: array<f32, ${MATMUL_TILE * tileDepth}>;`)}
${when(
  !swiglu,
  `
fn store(at: u32, column: u32, sum: f32) {
  var value = sum;
  if (params.hasBias != 0u) { value = value + bias[column]; }
  if (params.relu != 0u) { value = max(value, 0.0); }
  if (params.accumulate != 0u) { value = out[at] + value; }
  out[at] = value;
}`,
)}

@compute @workgroup_size(${THREADS_PER_SIDE}, ${THREADS_PER_SIDE}, 1)
fn main(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_id) local: vec3u, @builtin(local_invocation_index) localIndex: u32) {
  let rowBase = group.y * TILE;
  let columnBase = group.x * TILE;
  let depth = params.depth;
  ${declare}
  for (var k0 = 0u; k0 < depth; k0 += TILE_DEPTH) {
    for (var load = 0u; load < LOADS; load++) {
      let element = localIndex + load * THREADS * THREADS;
      let inTile = element / TILE_DEPTH;
      let kk = element % TILE_DEPTH;
      let k = k0 + kk;
      let row = rowBase + inTile;
      var a = 0.0;
      if (row < params.rows && k < depth) { a = x[params.xOffset + row * depth + k]; }
      xTile[kk * TILE + inTile] = a;
      let column = columnBase + inTile;
      var b = 0.0;
      ${when(swiglu, 'var c = 0.0;')}
      if (column < params.columns && k < depth) {
        b = ${load('w')};
        ${when(swiglu, `c = ${load('w2')};`)}
      }
      wTile[kk * TILE + inTile] = b;
      ${when(swiglu, 'upTile[kk * TILE + inTile] = c;')}
    }
    workgroupBarrier();
    for (var kk = 0u; kk < TILE_DEPTH; kk++) {
      let base = kk * TILE;
      ${lines((i) => `let a${i} = xTile[base + local.y + ${i * THREADS_PER_SIDE}u];`)}
      ${lines((j) => `let b${j} = wTile[base + local.x + ${j * THREADS_PER_SIDE}u];`)}
      ${swiglu ? lines((j) => `let c${j} = upTile[base + local.x + ${j * THREADS_PER_SIDE}u];`) : ''}
      ${multiply}
    }
    workgroupBarrier();
  }
  ${lines((i) => `let row${i} = rowBase + local.y + ${i * THREADS_PER_SIDE}u;`)}
  ${lines((j) => `let column${j} = columnBase + local.x + ${j * THREADS_PER_SIDE}u;`)}
  ${cells.map(storeCell).join('\n  ')}
}
`;
}

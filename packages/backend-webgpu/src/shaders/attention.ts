import { gridEntryPoint, kernelBindings } from './kernel-prelude.js';
/** Queries per workgroup: a block of consecutive tokens of one row. */
export const ATTENTION_QUERY_BLOCK = 64;

export function attentionKey(headDim: number): string {
  return `attention-${headDim}`;
}

/**
 * Keys staged in workgroup memory per step: a tile's keys and values take at most 15 KiB, under
 * the 16 KiB every adapter offers (with room for the workgroup's other variables).
 */
export function attentionKeyTile(headDim: number): number {
  return Math.max(1, Math.min(64, Math.floor(1920 / headDim)));
}

/**
 * Causal grouped-query attention, flash style: one workgroup per (query head, block of up to 64
 * consecutive tokens of one row), one thread per query.
 *
 * The workgroup walks the row's keys from 0 to its last query's position in tiles that it
 * stages in workgroup memory (keys and values of the query head's kv head, read from the
 * layer's cache buffer, where rope-scatter put this forward's keys after the row's past ones).
 * Each thread scores its query against the tile's keys up to its own position, then folds the
 * tile into a running maximum, total and output (online softmax). Tiles start at key 0 and
 * have a fixed size, so a query's arithmetic depends only on its row and position: never on
 * other rows, padding, or which block it falls in. Queries are pre-scaled by `1/sqrt(headDim)`.
 *
 * `blocks[3b..3b+2]` = row, first packed token, token count of block `b`.
 * Parameters: `blocks, headsPerKvHead, qkvStride, kvWidth, rowStride, valueBase, outWidth, scale (f32)`.
 * Bindings: params, qkv, tokenInfo, blocks, cache, out.
 */
export function attentionShader(headDim: number): string {
  const keyTile = attentionKeyTile(headDim);
  return `
${kernelBindings(
  'blocks: u32, headsPerKvHead: u32, qkvStride: u32, kvWidth: u32, rowStride: u32, valueBase: u32, outWidth: u32, scale: f32',
  'qkv: f32, tokenInfo: u32, blocks: u32, cache: f32, out: read_write f32',
)}

const QUERIES = ${ATTENTION_QUERY_BLOCK}u;
const HEAD_DIM = ${headDim}u;
const KEY_TILE = ${keyTile}u;
const LOWEST = -3.4028234e38;

var<workgroup> keyTile: array<f32, ${keyTile * headDim}>;
var<workgroup> valueTile: array<f32, ${keyTile * headDim}>;
var<workgroup> blockKeyCount: u32;

${gridEntryPoint(ATTENTION_QUERY_BLOCK)}
  let head = group.x;
  let block = group.y + group.z * groups.y;
  if (block >= params.blocks) { return; }
  let row = blocks[3u * block];
  let first = blocks[3u * block + 1u];
  let count = blocks[3u * block + 2u];
  let lane = local.x;
  let isQuery = lane < count;
  let token = first + min(lane, count - 1u);
  let position = tokenInfo[2u * token + 1u];
  // The last query sees the most keys; every thread loads tiles up to there.
  if (lane == count - 1u) { blockKeyCount = position + 1u; }
  let keyCount = workgroupUniformLoad(&blockKeyCount);

  var query: array<f32, HEAD_DIM>;
  let queryStart = token * params.qkvStride + head * HEAD_DIM;
  for (var d = 0u; d < HEAD_DIM; d++) { query[d] = qkv[queryStart + d] * params.scale; }
  let keyStart = row * params.rowStride + (head / params.headsPerKvHead) * HEAD_DIM;

  var runningMax = LOWEST;
  var runningTotal = 0.0;
  var acc: array<f32, HEAD_DIM>;
  var scores: array<f32, KEY_TILE>;
  for (var tileStart = 0u; tileStart < keyCount; tileStart += KEY_TILE) {
    for (var element = lane; element < KEY_TILE * HEAD_DIM; element += QUERIES) {
      let key = tileStart + element / HEAD_DIM;
      var k = 0.0;
      var v = 0.0;
      if (key < keyCount) {
        let at = keyStart + key * params.kvWidth + element % HEAD_DIM;
        k = cache[at];
        v = cache[params.valueBase + at];
      }
      keyTile[element] = k;
      valueTile[element] = v;
    }
    workgroupBarrier();
    // Keys of this tile the query sees: up to and including its own position.
    let visible = select(0u, min(KEY_TILE, position + 1u - tileStart), isQuery && position >= tileStart);
    if (visible > 0u) {
      var tileMax = LOWEST;
      for (var j = 0u; j < visible; j++) {
        var score = 0.0;
        for (var d = 0u; d < HEAD_DIM; d++) { score = score + query[d] * keyTile[j * HEAD_DIM + d]; }
        scores[j] = score;
        tileMax = max(tileMax, score);
      }
      let newMax = max(runningMax, tileMax);
      let correction = exp(runningMax - newMax);
      for (var d = 0u; d < HEAD_DIM; d++) { acc[d] = acc[d] * correction; }
      var tileTotal = 0.0;
      for (var j = 0u; j < visible; j++) {
        let weight = exp(scores[j] - newMax);
        tileTotal = tileTotal + weight;
        for (var d = 0u; d < HEAD_DIM; d++) { acc[d] = acc[d] + weight * valueTile[j * HEAD_DIM + d]; }
      }
      runningTotal = runningTotal * correction + tileTotal;
      runningMax = newMax;
    }
    workgroupBarrier();
  }
  if (isQuery) {
    let inverseTotal = 1.0 / runningTotal;
    let outStart = token * params.outWidth + head * HEAD_DIM;
    for (var d = 0u; d < HEAD_DIM; d++) { out[outStart + d] = acc[d] * inverseTotal; }
  }
}
`;
}

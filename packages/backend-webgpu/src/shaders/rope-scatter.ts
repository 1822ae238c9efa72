import { gridEntryPoint, kernelBindings } from './kernel-prelude.js';
import { workgroupIndex } from './shader-types.js';

export const ropeScatterKey = 'rope-scatter';

/**
 * Rotary embedding and the key/value cache write, one workgroup per token.
 *
 * `qkv` holds each token's fused projection `[queries | keys | values]`. Queries are rotated
 * in place; keys are rotated and, with the values, written to the token's slot of its row in
 * the layer's cache buffer `[keys | values]`, each `[rows, rowCapacity, kvWidth]`. Hugging
 * Face's rotate_half layout: dimension `d` pairs with `d + headDim/2`, both turned by the
 * angle of (position, d) from the precomputed float32 tables `[maxPositions, headDim/2]`.
 * `tokenInfo[2t], tokenInfo[2t+1]` are the token's row and position id.
 *
 * Parameters: `tokens, queryHeads, kvHeads, halfDim, qkvStride, kvWidth, rowStride, valueBase`.
 * Bindings: params, qkv, tokenInfo, cos, sin, cache.
 */
export function ropeScatterShader(): string {
  return `
${kernelBindings(
  'tokens: u32, queryHeads: u32, kvHeads: u32, halfDim: u32, qkvStride: u32, kvWidth: u32, rowStride: u32, valueBase: u32',
  'qkv: read_write f32, tokenInfo: u32, cosTable: f32, sinTable: f32, cache: read_write f32',
)}

${gridEntryPoint(64)}
  let token = ${workgroupIndex};
  if (token >= params.tokens) { return; }
  let row = tokenInfo[2u * token];
  let position = tokenInfo[2u * token + 1u];
  let halfDim = params.halfDim;
  let headDim = 2u * halfDim;
  let table = position * halfDim;
  let base = token * params.qkvStride;
  for (var i = local.x; i < params.queryHeads * halfDim; i += 64u) {
    let d = i % halfDim;
    let at = base + (i / halfDim) * headDim + d;
    let first = qkv[at];
    let second = qkv[at + halfDim];
    let c = cosTable[table + d];
    let s = sinTable[table + d];
    qkv[at] = first * c - second * s;
    qkv[at + halfDim] = second * c + first * s;
  }
  let keys = base + params.queryHeads * headDim;
  let values = keys + params.kvWidth;
  let slot = row * params.rowStride + position * params.kvWidth;
  for (var i = local.x; i < params.kvHeads * halfDim; i += 64u) {
    let d = i % halfDim;
    let offset = (i / halfDim) * headDim + d;
    let first = qkv[keys + offset];
    let second = qkv[keys + offset + halfDim];
    let c = cosTable[table + d];
    let s = sinTable[table + d];
    cache[slot + offset] = first * c - second * s;
    cache[slot + offset + halfDim] = second * c + first * s;
  }
  for (var i = local.x; i < params.kvWidth; i += 64u) {
    cache[params.valueBase + slot + i] = qkv[values + i];
  }
}
`;
}

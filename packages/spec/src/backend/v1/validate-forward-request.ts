import { Capability } from '../../capabilities.js';
import { BackendContractError } from '../../errors/backend-contract-error.js';
import { UnsupportedCapabilityError } from '../../errors/unsupported-capability-error.js';
import type { BackendV1, ForwardRequestV1 } from './backend-v1.js';

/**
 * Checks a request against the spec and the backend's declared capabilities before any work.
 * Backends call this first so that every implementation rejects bad requests the same way.
 * Returns, per row, the number of real tokens.
 */
export function validateForwardRequest(backend: BackendV1, request: ForwardRequestV1): number[] {
  const { batchSize, sequenceLength, inputIds, attentionMask } = request;
  const fail = (message: string): never => {
    throw new BackendContractError(backend.name, message);
  };
  if (!Number.isInteger(batchSize) || batchSize < 1) fail(`batchSize must be a positive integer, got ${batchSize}`);
  if (!Number.isInteger(sequenceLength) || sequenceLength < 1) fail(`sequenceLength must be a positive integer, got ${sequenceLength}`);
  const cells = batchSize * sequenceLength;
  if (inputIds.length !== cells) fail(`inputIds has ${inputIds.length} entries, expected ${batchSize}x${sequenceLength}`);
  if (attentionMask.length !== cells) fail(`attentionMask has ${attentionMask.length} entries, expected ${batchSize}x${sequenceLength}`);
  if ((request.past || request.returnCache) && !backend.supportsCache) {
    throw new UnsupportedCapabilityError({ capability: 'KV cache', backend: backend.name, operation: 'a forward pass with a prefix cache' });
  }
  if (request.past && request.past.length !== batchSize) fail(`past has ${request.past.length} entries, expected one per row (${batchSize})`);

  const realTokens: number[] = [];
  const { vocabSize, maxPositions } = backend.info;
  for (let row = 0; row < batchSize; row++) {
    let count = 0;
    for (let column = 0; column < sequenceLength; column++) {
      const index = row * sequenceLength + column;
      const id = inputIds[index]!;
      if (id < 0 || id >= vocabSize) fail(`token id ${id} at row ${row}, position ${column} is outside the vocabulary (0..${vocabSize - 1})`);
      const mask = attentionMask[index]!;
      if (mask !== 0 && mask !== 1) fail(`attentionMask must hold 0 or 1, got ${mask} at row ${row}, position ${column}`);
      count += mask;
    }
    const pastLength = request.past?.[row]?.length ?? 0;
    if (count + pastLength > maxPositions) fail(`row ${row} has ${count + pastLength} tokens, more than the model's ${maxPositions} positions`);
    realTokens.push(count);
  }
  if (request.cacheLengths !== undefined) checkCacheLengths(backend, request, realTokens, fail);

  for (const read of request.reads) {
    if (read.positions.length !== batchSize) fail(`a read lists positions for ${read.positions.length} rows, expected ${batchSize}`);
    if (read.kind === 'hidden') {
      if ((backend.capabilities & Capability.ACTIVATIONS) === 0) {
        throw new UnsupportedCapabilityError({ capability: 'ACTIVATIONS', backend: backend.name, operation: 'reading hidden states' });
      }
      if (!Number.isInteger(read.layer) || read.layer < 0 || read.layer > backend.info.numLayers) {
        fail(`hidden layer ${read.layer} is outside 0..${backend.info.numLayers}`);
      }
    } else {
      const head = backend.info.heads.find((candidate) => candidate.name === read.head);
      if (!head) fail(`no head named "${read.head}" (heads: ${backend.info.heads.map((h) => h.name).join(', ') || 'none'})`);
      if (read.layer !== undefined && read.layer !== backend.info.numLayers) {
        if ((backend.capabilities & Capability.LINEAR_READOUT) === 0) {
          throw new UnsupportedCapabilityError({ capability: 'LINEAR_READOUT', backend: backend.name, operation: 'reading a head at an inner layer' });
        }
        if (!Number.isInteger(read.layer) || read.layer < 0 || read.layer > backend.info.numLayers) {
          fail(`head layer ${read.layer} is outside 0..${backend.info.numLayers}`);
        }
      }
      for (const column of read.columns ?? []) {
        if (!Number.isInteger(column) || column < 0 || column >= head!.width) fail(`column ${column} is outside head "${head!.name}" (width ${head!.width})`);
      }
    }
    for (let row = 0; row < batchSize; row++) {
      for (const position of read.positions[row]!) {
        if (!Number.isInteger(position) || position < 0 || position >= sequenceLength) {
          fail(`position ${position} of row ${row} is outside 0..${sequenceLength - 1}`);
        }
        if (attentionMask[row * sequenceLength + position] === 0) fail(`position ${position} of row ${row} is padding`);
      }
    }
  }
  return realTokens;
}

function checkCacheLengths(backend: BackendV1, request: ForwardRequestV1, realTokens: readonly number[], fail: (message: string) => never): void {
  const lengths = request.cacheLengths!;
  if (backend.supportsCacheLengths !== true) {
    throw new UnsupportedCapabilityError({ capability: 'cache lengths', backend: backend.name, operation: 'returning caches shorter than their rows' });
  }
  if (request.returnCache !== true) fail('cacheLengths needs returnCache');
  if (lengths.length !== request.batchSize) fail(`cacheLengths has ${lengths.length} entries, expected one per row (${request.batchSize})`);
  lengths.forEach((length, row) => {
    const pastLength = request.past?.[row]?.length ?? 0;
    const end = pastLength + realTokens[row]!;
    if (!Number.isInteger(length) || length < pastLength || length > end)
      fail(`cacheLengths[${row}] is ${length}, outside ${pastLength}..${end} (the row's past to its last real token)`);
  });
}

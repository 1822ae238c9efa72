import { BackendContractError } from '../../errors/backend-contract-error.js';
import type { BackendV1, BackwardRequestV1, HvpRequestV1, ReadGradientsV1, ReadResultV1 } from './backend-v1.js';
import { validateForwardRequest } from './validate-forward-request.js';

/**
 * Checks a `doBackward` request before any work: the forward part as `validateForwardRequest`
 * does, no caches (gradients do not flow into a cached prefix), when `readGradients` is given as
 * arrays their shapes, and the shapes of `inputEmbeddings`. Returns, per row, the number of real tokens.
 */
export function validateBackwardRequest(backend: BackendV1, request: BackwardRequestV1): number[] {
  const fail = (message: string): never => {
    throw new BackendContractError(backend.name, message);
  };
  if (request.past !== undefined || request.returnCache === true) fail('a backward pass takes no past cache and returns none');
  const realTokens = validateForwardRequest(backend, request);
  if (typeof request.readGradients !== 'function') checkReadGradientShapes(backend, request, request.readGradients, undefined);
  if (request.inputEmbeddings !== undefined) {
    const width = request.sequenceLength * backend.info.hiddenSize;
    if (!Array.isArray(request.inputEmbeddings) || request.inputEmbeddings.length !== request.batchSize) {
      fail(`inputEmbeddings must hold one array per row (${request.batchSize})`);
    }
    request.inputEmbeddings.forEach((values, row) => {
      if (!(values instanceof Float32Array) || values.length !== width) {
        fail(`inputEmbeddings of row ${row} have ${values?.length} values, expected ${request.sequenceLength}x${backend.info.hiddenSize}`);
      }
      for (let index = 0; index < values.length; index++) {
        if (!Number.isFinite(values[index]!)) fail(`inputEmbeddings of row ${row} hold a non-finite value at ${index}`);
      }
    });
  }
  return realTokens;
}

/**
 * Checks an HVP request: the backward part, then the direction against the model's parameters
 * (`parameterSizes`: elements per tensor name) and the batch.
 */
export function validateHvpRequest(backend: BackendV1, request: HvpRequestV1, parameterSizes: ReadonlyMap<string, number>): number[] {
  const realTokens = validateBackwardRequest(backend, request);
  // The direction is the caller's data: its faults name the field, so core can say whose they are.
  const fail = (message: string): never => {
    throw new BackendContractError(backend.name, message, { field: 'direction' });
  };
  const { direction } = request;
  if (direction === null || typeof direction !== 'object') fail('an HVP request needs a direction');
  for (const [name, tangent] of direction.parameters ?? []) {
    const size = parameterSizes.get(name);
    if (size === undefined) fail(`the direction names "${name}", which is not a parameter of this model`);
    if (!(tangent instanceof Float32Array) || tangent.length !== size) fail(`the direction for "${name}" has ${tangent?.length} values, expected ${size}`);
  }
  if (direction.inputEmbeddings !== undefined) {
    const width = request.sequenceLength * backend.info.hiddenSize;
    if (direction.inputEmbeddings.length !== request.batchSize) {
      fail(`the direction has input embeddings for ${direction.inputEmbeddings.length} rows, expected ${request.batchSize}`);
    }
    direction.inputEmbeddings.forEach((tangent, row) => {
      if (!(tangent instanceof Float32Array) || tangent.length !== width) {
        fail(`the direction's input embeddings of row ${row} have ${tangent?.length} values, expected ${request.sequenceLength}x${backend.info.hiddenSize}`);
      }
    });
  }
  return realTokens;
}

/**
 * The request's d(loss)/d(reads) for the forward's `reads`: the arrays given, or what the
 * request's function returns for them, checked against the reads' shapes.
 */
export function resolveReadGradients(backend: BackendV1, request: BackwardRequestV1, reads: readonly ReadResultV1[]): ReadGradientsV1 {
  const gradients = typeof request.readGradients === 'function' ? request.readGradients(reads) : request.readGradients;
  checkReadGradientShapes(backend, request, gradients, reads);
  return gradients;
}

/** Checks `gradients` (d(loss)/d(reads), or an HVP's loss curvature) against the reads' shapes. */
export function checkReadGradientShapes(
  backend: BackendV1,
  request: BackwardRequestV1,
  gradients: ReadGradientsV1,
  reads: readonly ReadResultV1[] | undefined,
  what = 'readGradients',
): void {
  const fail = (message: string): never => {
    throw new BackendContractError(backend.name, message);
  };
  if (!Array.isArray(gradients) || gradients.length !== request.reads.length) {
    fail(`${what} must hold one entry per read (${request.reads.length}), got ${Array.isArray(gradients) ? gradients.length : typeof gradients}`);
  }
  request.reads.forEach((read, index) => {
    const perRow = gradients[index]!;
    if (!Array.isArray(perRow) || perRow.length !== request.batchSize) fail(`${what}[${index}] must hold one array per row (${request.batchSize})`);
    const width = reads?.[index]?.width ?? readWidth(backend, read);
    perRow.forEach((values, row) => {
      const expected = read.positions[row]!.length * width;
      if (!(values instanceof Float32Array) || values.length !== expected) {
        fail(`${what}[${index}][${row}] has ${values?.length} values, expected ${expected} (${read.positions[row]!.length} positions x ${width})`);
      }
    });
  });
}

function readWidth(backend: BackendV1, read: BackwardRequestV1['reads'][number]): number {
  if (read.kind === 'hidden') return backend.info.hiddenSize;
  return read.columns?.length ?? backend.info.heads.find((head) => head.name === read.head)?.width ?? 0;
}

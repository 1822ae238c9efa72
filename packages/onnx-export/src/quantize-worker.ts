/**
 * A thread of `createThreadedQuantizer`: quantizes pieces of rows it is handed (float32 values in
 * shared memory) into tensors in shared memory, as `quantizeInto` does in the loader, and says
 * which piece is done (or why it could not be). Ends when its port closes.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { QuantizedFormatV1 } from '@reward-lens/spec';
import { quantizedTensorIn, quantizeInto } from '@reward-lens/spec/internal';

/** One piece: `count` float32 values from `valuesOffset` of `values`, into the tensor at `targetOffset` of `target`. */
export interface QuantizePiece {
  id: number;
  /** The reader's slot the values are in, freed here once they are quantized. */
  slot: number;
  values: SharedArrayBuffer;
  valuesOffset: number;
  count: number;
  target: SharedArrayBuffer;
  targetOffset: number;
  targetLength: number;
  format: QuantizedFormatV1;
  rows: number;
  columns: number;
  firstRow: number;
}

// Pieces handed over and not yet done, shared with the reader, which may be blocked on it: decremented here.
const shared = workerData as { inFlight: SharedArrayBuffer; slotStates: SharedArrayBuffer };
const inFlight = new Int32Array(shared.inFlight);
const slotStates = new Int32Array(shared.slotStates);
const port = parentPort;
port?.on('message', (piece: QuantizePiece) => {
  let error: string | undefined;
  try {
    const tensor = quantizedTensorIn(new Uint8Array(piece.target, piece.targetOffset, piece.targetLength), piece.format, piece.rows, piece.columns);
    quantizeInto(tensor, new Float32Array(piece.values, piece.valuesOffset, piece.count), piece.firstRow);
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
  }
  Atomics.store(slotStates, piece.slot, 0);
  Atomics.sub(inFlight, 0, 1);
  Atomics.notify(inFlight, 0);
  port.postMessage(error === undefined ? { id: piece.id } : { id: piece.id, error });
});

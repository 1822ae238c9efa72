import { ModelLoadError } from '@reward-lens/spec';

export interface Llama2cPiece {
  /** The piece as llama2.c spells it: spaces as ' ', raw bytes as `<0xNN>`. */
  text: string;
  bytes: Uint8Array;
  /** Merge priority: the adjacent pair whose concatenation scores highest merges first. */
  score: number;
}

export interface Llama2cTokenizer {
  maxTokenLength: number;
  /** Indexed by token id. */
  pieces: Llama2cPiece[];
}

/**
 * Reads a llama2.c `tokenizer.bin`: int32 max_token_length, then per token a float32 score,
 * an int32 byte length and the bytes. The file does not store its own size, so the model's
 * vocab size is needed; a file with bytes left over belongs to another model.
 */
export function parseLlama2cTokenizer(bytes: Uint8Array, vocabSize: number, fileName: string): Llama2cTokenizer {
  const fail = (message: string): never => {
    throw new ModelLoadError(`not a llama2.c tokenizer for a ${vocabSize}-token vocabulary: ${message}`, { file: fileName });
  };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  if (bytes.length < 4) fail(`the file has ${bytes.length} bytes, the header needs 4`);
  const maxTokenLength = view.getInt32(0, true);
  const pieces: Llama2cPiece[] = [];
  let offset = 4;
  for (let id = 0; id < vocabSize; id++) {
    if (offset + 8 > bytes.length) fail(`the file ends after ${id} pieces (byte ${bytes.length})`);
    const score = view.getFloat32(offset, true);
    const length = view.getInt32(offset + 4, true);
    offset += 8;
    if (length < 0 || offset + length > bytes.length)
      fail(`piece ${id} claims ${length} bytes at byte ${offset}, past the end of the ${bytes.length}-byte file`);
    const pieceBytes = bytes.slice(offset, offset + length);
    offset += length;
    let text = '';
    try {
      text = decoder.decode(pieceBytes);
    } catch (error) {
      throw new ModelLoadError(`piece ${id} is not valid UTF-8`, { file: fileName, cause: error });
    }
    pieces.push({ text, bytes: pieceBytes, score });
  }
  if (offset !== bytes.length) fail(`${bytes.length - offset} bytes are left after ${vocabSize} pieces (is it another model's tokenizer?)`);
  return { maxTokenLength, pieces };
}

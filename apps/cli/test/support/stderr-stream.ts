import { Writable } from 'node:stream';

/** A stderr that records what is written, on a terminal (`isTTY`) or not. */
export function stderrStream(isTerminal: boolean) {
  const chunks: string[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(String(chunk));
        callback();
      },
    }),
    { isTTY: isTerminal },
  );
  return { stream, text: () => chunks.join('') };
}

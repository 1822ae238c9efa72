import { once } from 'node:events';

/**
 * Writes and waits for the stream to drain when its buffer is full, so a long JSONL run
 * into a slow pipe holds a bounded amount of output in memory.
 */
export async function writeText(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (text.length === 0) return;
  if (!stream.write(text)) await once(stream, 'drain');
}

/**
 * The `data:` payloads of a server-sent event stream, one per event (multi-line data joined by
 * `\n`), as they arrive. `onChunk` is called for every chunk read (an idle timer resets on it).
 */
export async function* serverSentData(body: ReadableStream<Uint8Array>, onChunk: () => void = () => {}): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      onChunk();
      buffer += decoder.decode(value, { stream: true });
      let newline = buffer.search(/\r\n|\r|\n/);
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (data.length > 0) yield data.join('\n');
          data = [];
        } else if (line.startsWith('data:')) {
          data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
        }
        newline = buffer.search(/\r\n|\r|\n/);
      }
    }
    buffer += decoder.decode();
    if (buffer.startsWith('data:')) data.push(buffer.slice(buffer.startsWith('data: ') ? 6 : 5));
    if (data.length > 0) yield data.join('\n');
  } finally {
    reader.releaseLock();
  }
}

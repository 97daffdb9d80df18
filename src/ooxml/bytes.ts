// Byte buffers as the zip reader and writers hand them on: a Node Buffer viewed as a plain
// Uint8Array (no copy), and chunks joined into one fresh buffer of its own (a caller may transfer
// it to another thread).

/** `buffer`'s bytes as a Uint8Array over the same memory. */
export const bytesOf = (buffer: Buffer): Uint8Array<ArrayBuffer> =>
  new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength);

/** `chunks` in order in one new buffer; `size` is their total length. */
export function joinBytes(chunks: readonly Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.byteLength;
  }
  return joined;
}

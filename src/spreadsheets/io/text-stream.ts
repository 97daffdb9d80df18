// Text produced a piece at a time (CSV lines) as a UTF-8 web stream: pieces are joined into
// batches of about 64 K characters, each encoded when the reader asks for it, so a large sheet is
// never one string and a reader that stops early stops the producer.

/** Characters per encoded chunk. */
const BATCH = 1 << 16;
const BOM = "\uFEFF";

export interface TextStreamOptions {
  /** Start with a UTF-8 byte-order mark. */
  bom?: boolean;
}

/** `pieces` as UTF-8 bytes, pulled as the reader reads. */
export function textStream(pieces: Iterable<string>, options: TextStreamOptions = {}): ReadableStream<Uint8Array> {
  const iterator = pieces[Symbol.iterator]();
  const encoder = new TextEncoder();
  let pending = options.bom ? BOM : "";
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      let batch = pending;
      pending = "";
      let done = false;
      while (batch.length < BATCH) {
        const next = iterator.next();
        if (next.done) {
          done = true;
          break;
        }
        batch += next.value;
      }
      if (batch.length > 0) controller.enqueue(encoder.encode(batch));
      if (done) controller.close();
    },
    cancel() {
      iterator.return?.();
    },
  });
}

/** `pieces` joined, with the optional byte-order mark. */
export function joinText(pieces: Iterable<string>, options: TextStreamOptions = {}): string {
  let out = options.bom ? BOM : "";
  for (const piece of pieces) out += piece;
  return out;
}

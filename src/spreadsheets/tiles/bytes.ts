// A small binary writer and reader for tiles: unsigned and zig-zag varints, float64, UTF-8 text.

const encoder = new TextEncoder();
const decoder = new TextDecoder();
// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

export class ByteWriter {
  private buffer = new Uint8Array(1024);
  private view = new DataView(this.buffer.buffer);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
    this.view = new DataView(next.buffer);
  }

  byte(b: number): void {
    this.room(1);
    this.buffer[this.length++] = b;
  }

  /** An unsigned integer below 2^53, 7 bits a byte. */
  uint(n: number): void {
    this.room(8);
    while (n >= 0x80) {
      this.buffer[this.length++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buffer[this.length++] = n;
  }

  /** A signed integer (|n| < 2^52), zig-zag encoded. */
  int(n: number): void {
    this.uint(n < 0 ? -2 * n - 1 : 2 * n);
  }

  float(n: number): void {
    this.room(8);
    this.view.setFloat64(this.length, n, true);
    this.length += 8;
  }

  text(s: string): void {
    // Short ASCII text (most cells) byte by byte: a TextEncoder call per cell costs more than the copy.
    if (s.length < 128 && ASCII.test(s)) {
      this.uint(s.length);
      this.room(s.length);
      for (let i = 0; i < s.length; i++) this.buffer[this.length++] = s.charCodeAt(i);
      return;
    }
    const bytes = encoder.encode(s);
    this.uint(bytes.length);
    this.room(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  bytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

export class ByteReader {
  private readonly view: DataView;
  offset = 0;

  constructor(private readonly buffer: Uint8Array) {
    this.view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  }

  private need(n: number): void {
    if (this.offset + n > this.buffer.length) throw new RangeError("tile ends early");
  }

  byte(): number {
    this.need(1);
    return this.buffer[this.offset++] as number;
  }

  uint(): number {
    let n = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
      scale *= 0x80;
      if (scale > 2 ** 56) throw new RangeError("varint too long");
    }
  }

  int(): number {
    const z = this.uint();
    return z % 2 === 1 ? -(z + 1) / 2 : z / 2;
  }

  float(): number {
    this.need(8);
    const n = this.view.getFloat64(this.offset, true);
    this.offset += 8;
    return n;
  }

  text(): string {
    const length = this.uint();
    this.need(length);
    const end = this.offset + length;
    if (length < 64) {
      let s = "";
      for (let i = this.offset; i < end; i++) {
        const b = this.buffer[i] as number;
        if (b >= 0x80) return this.utf8(length);
        s += String.fromCharCode(b);
      }
      this.offset = end;
      return s;
    }
    return this.utf8(length);
  }

  private utf8(length: number): string {
    const s = decoder.decode(this.buffer.subarray(this.offset, this.offset + length));
    this.offset += length;
    return s;
  }

  get done(): boolean {
    return this.offset >= this.buffer.length;
  }
}

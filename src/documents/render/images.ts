// Images: `data:` PNG/JPEG decoded and measured from their own headers; any other image is never
// fetched (no request leaves the renderer) and is shown as a placeholder that says what it is.
import { Buffer } from "node:buffer";

/** What a placeholder starts with: GitHub's :framed_picture:. */
export const IMAGE_MARK = "\u{1F5BC}\uFE0F";

/**
 * What a placeholder says after its mark: the alt text (whitespace collapsed), else the file name
 * of the source (`logo.svg` of `https://example.com/img/logo.svg?v=2`), else "image".
 */
export function imageLabel(alt: string, src: string): string {
  const text = alt.replace(/\s+/g, " ").trim();
  if (text) return text;
  return fileName(src) || "image";
}

function fileName(src: string): string {
  if (/^data:/i.test(src)) return "";
  const path = src.replace(/[?#].*$/s, "");
  const name = path.slice(path.lastIndexOf("/", path.length - 2) + 1).replace(/\/$/, "");
  if (/^[a-z][a-z0-9+.-]*:$/i.test(name) || name === "") return "";
  try {
    return decodeURIComponent(name).replace(/\s+/g, " ").trim();
  } catch {
    return name;
  }
}

export interface EmbeddedImage {
  type: "png" | "jpg";
  data: Uint8Array;
  /** Display size in pixels, scaled down to fit MAX_WIDTH × MAX_HEIGHT. */
  width: number;
  height: number;
}

/** Roughly the text width of an A4 page at 96 dpi, and a bit less than its text height. */
export const MAX_IMAGE_WIDTH = 600;
export const MAX_IMAGE_HEIGHT = 800;

const DATA_URI = /^data:image\/(png|jpe?g);base64,([A-Za-z0-9+/=\s%]*)$/i;

/** Decodes a `data:image/png|jpeg;base64,…` URI; undefined for anything else or an unreadable image. */
export function decodeDataImage(src: string): EmbeddedImage | undefined {
  const match = DATA_URI.exec(src);
  if (!match) return undefined;
  const kind = (match[1] ?? "").toLowerCase();
  let payload = match[2] ?? "";
  // markdown-it percent-encodes some characters of link destinations; base64 only needs "=" back.
  if (payload.includes("%")) {
    try {
      payload = decodeURIComponent(payload);
    } catch {
      return undefined;
    }
  }
  const data = new Uint8Array(Buffer.from(payload.replace(/\s+/g, ""), "base64"));
  const size = kind === "png" ? pngSize(data) : jpegSize(data);
  if (!size) return undefined;
  const scale = Math.min(1, MAX_IMAGE_WIDTH / size.width, MAX_IMAGE_HEIGHT / size.height);
  return {
    type: kind === "png" ? "png" : "jpg",
    data,
    width: Math.max(1, Math.round(size.width * scale)),
    height: Math.max(1, Math.round(size.height * scale)),
  };
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function u32(data: Uint8Array, at: number): number {
  return ((data[at] ?? 0) * 0x1000000 + ((data[at + 1] ?? 0) << 16) + ((data[at + 2] ?? 0) << 8) + (data[at + 3] ?? 0)) >>> 0;
}

function u16(data: Uint8Array, at: number): number {
  return ((data[at] ?? 0) << 8) | (data[at + 1] ?? 0);
}

/** Width and height from the IHDR chunk, which must come first. */
export function pngSize(data: Uint8Array): { width: number; height: number } | undefined {
  if (data.length < 33 || PNG_SIGNATURE.some((byte, i) => data[i] !== byte)) return undefined;
  if (String.fromCharCode(data[12] ?? 0, data[13] ?? 0, data[14] ?? 0, data[15] ?? 0) !== "IHDR") return undefined;
  const width = u32(data, 16);
  const height = u32(data, 20);
  return width > 0 && height > 0 ? { width, height } : undefined;
}

/** Width and height from the first start-of-frame marker (SOF0..SOF15 but DHT, JPG and DAC). */
export function jpegSize(data: Uint8Array): { width: number; height: number } | undefined {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 3 < data.length) {
    if (data[at] !== 0xff) return undefined;
    const marker = data[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined; // end of image / start of scan before any frame
    const length = u16(data, at + 2);
    if (length < 2) return undefined;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (at + 9 > data.length) return undefined;
      const height = u16(data, at + 5);
      const width = u16(data, at + 7);
      return width > 0 && height > 0 ? { width, height } : undefined;
    }
    at += 2 + length;
  }
  return undefined;
}

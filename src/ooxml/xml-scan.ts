// A fast path for the XML parts a reader walks by local names (spreadsheet sheets and shared
// strings): the inflated bytes scanned in place, no text decoded but what the handler asks for,
// one reused element object, names interned. It accepts only a plain subset of XML that it checks
// as strictly as saxes does (UTF-8, ASCII names, the five predefined entities and character
// references, no DOCTYPE, comment, CDATA or processing instruction but the XML declaration), and
// gives the same events for it; on anything else it gives up (NotPlain) and the caller reads the
// part again with the full parser (./xml-parse.ts), which accepts or refuses it as before. Bytes are
// counted against the budget as for the full parser (./parts.ts), and a budget refusal is final.
import type { Budget } from "./budget.ts";
import { MAX_XML_DEPTH, type XmlElement, type XmlHandler } from "./xml-parse.ts";
import { inflateItem, type ZipItem } from "./zip-read.ts";

/** The part is not in the plain subset: read it with the full parser. */
export class NotPlain extends Error {}

const notPlain = new NotPlain("not plain XML");

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const AMP = 0x26;
const EQ = 0x3d;
const QUOT = 0x22;
const APOS = 0x27;
const QUESTION = 0x3f;
const COLON = 0x3a;
const RBRACKET = 0x5d;
const CR = 0x0d;
/** A token (text or tag) longer than this is left to the full parser, rather than carried from chunk to chunk. */
const MAX_TOKEN = 1 << 20;
const MAX_ATTRIBUTES = 64;

const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x09 || b === 0x0d;
const isNameStart = (b: number): boolean => (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || b === 0x5f || b === COLON;
const isName = (b: number): boolean => isNameStart(b) || (b >= 0x30 && b <= 0x39) || b === 0x2d || b === 0x2e;

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const PREDEFINED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
const isXmlChar = (c: number): boolean =>
  (c >= 0x20 && c <= 0xd7ff) || c === 0x0a || c === 0x0d || c === 0x09 || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);

/** Text or an attribute value with non-ASCII bytes, references or line ends, decoded as XML reads it. */
function decodeComplex(bytes: Uint8Array, start: number, end: number, attribute: boolean): string {
  let text: string;
  try {
    text = utf8.decode(bytes.subarray(start, end));
  } catch {
    throw notPlain;
  }
  if (text.includes("\uFFFE") || text.includes("\uFFFF")) throw notPlain;
  text = attribute ? text.replace(/\r\n|[\r\n\t]/g, " ") : text.replace(/\r\n?/g, "\n");
  if (!text.includes("&")) return text;
  return text.replace(/&([^;&]*);|&/g, (whole, name: string | undefined) => {
    if (name === undefined) throw notPlain;
    const predefined = PREDEFINED[name];
    if (predefined !== undefined) return predefined;
    const match = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(name);
    if (!match) throw notPlain;
    const code = match[1] !== undefined ? parseInt(match[1], 16) : parseInt(match[2]!, 10);
    if (!isXmlChar(code)) throw notPlain;
    return String.fromCodePoint(code);
  });
}

/** Latin-1 (here: ASCII) bytes as a string. */
function ascii(bytes: Uint8Array, start: number, end: number): string {
  if (end - start < 24) {
    let s = "";
    for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i]!);
    return s;
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString("latin1");
}

/** The element being opened: read during the handler's open() only (it is reused for the next). */
class ScannedElement implements XmlElement {
  name = "";
  local = "";
  readonly uri = "";
  bytes: Uint8Array = new Uint8Array(0);
  count = 0;
  readonly nameStart = new Int32Array(MAX_ATTRIBUTES);
  readonly nameEnd = new Int32Array(MAX_ATTRIBUTES);
  /** Where the local name starts (after the prefix's colon, or nameStart). */
  readonly localStart = new Int32Array(MAX_ATTRIBUTES);
  readonly valueStart = new Int32Array(MAX_ATTRIBUTES);
  readonly valueEnd = new Int32Array(MAX_ATTRIBUTES);
  /** 1: plain ASCII, read as is; 0: decoded (references, line ends, non-ASCII). */
  readonly plain = new Uint8Array(MAX_ATTRIBUTES);

  get attributes(): Record<string, string> {
    const map: Record<string, string> = {};
    for (let i = 0; i < this.count; i++) map[ascii(this.bytes, this.nameStart[i]!, this.nameEnd[i]!)] = this.value(i);
    return map;
  }

  value(i: number): string {
    return this.plain[i] === 1
      ? ascii(this.bytes, this.valueStart[i]!, this.valueEnd[i]!)
      : decodeComplex(this.bytes, this.valueStart[i]!, this.valueEnd[i]!, true);
  }

  private matches(from: number, to: number, name: string): boolean {
    if (to - from !== name.length) return false;
    for (let k = 0; k < name.length; k++) if (this.bytes[from + k] !== name.charCodeAt(k)) return false;
    return true;
  }

  /** As PlainElement.attribute: the attribute named `local` without a prefix, else the first with that local name. */
  index(local: string): number {
    let prefixed = -1;
    for (let i = 0; i < this.count; i++) {
      if (!this.matches(this.localStart[i]!, this.nameEnd[i]!, local)) continue;
      if (this.localStart[i] === this.nameStart[i]) return i;
      if (prefixed < 0) prefixed = i;
    }
    return prefixed;
  }

  attribute(local: string): string | undefined {
    const i = this.index(local);
    return i < 0 ? undefined : this.value(i);
  }
}

/** Element names as strings, made once per distinct name. */
class Names {
  private readonly byKey = new Map<number, { name: string; local: string }[]>();
  /** Names of up to three bytes (row, c, v, f, si, t…) by the bytes themselves: no hash, nothing to compare. */
  private readonly short = new Map<number, { name: string; local: string }>();
  get(bytes: Uint8Array, start: number, end: number): { name: string; local: string } {
    const length = end - start;
    if (length <= 3) {
      let key = length;
      for (let i = start; i < end; i++) key = (key << 8) | bytes[i]!;
      let entry = this.short.get(key);
      if (!entry) this.short.set(key, (entry = this.make(bytes, start, end)));
      return entry;
    }
    let hash = length;
    for (let i = start; i < end; i++) hash = (Math.imul(hash, 31) + bytes[i]!) | 0;
    let list = this.byKey.get(hash);
    if (list) {
      for (const entry of list) {
        if (entry.name.length !== end - start) continue;
        let same = true;
        for (let k = 0; k < entry.name.length && same; k++) same = entry.name.charCodeAt(k) === bytes[start + k];
        if (same) return entry;
      }
    } else this.byKey.set(hash, (list = []));
    const entry = this.make(bytes, start, end);
    list.push(entry);
    return entry;
  }

  private make(bytes: Uint8Array, start: number, end: number): { name: string; local: string } {
    const name = ascii(bytes, start, end);
    const colon = name.indexOf(":");
    return { name, local: colon < 0 ? name : name.slice(colon + 1) };
  }
}

const DECLARATION =
  /^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])1\.0\1(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(["'])([A-Za-z][A-Za-z0-9._-]*)\2)?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(["'])(?:yes|no)\4)?[ \t\r\n]*\?>/;

/** The scanner: bytes in as they are inflated, events out; an incomplete token is carried to the next chunk. */
export class XmlScanner {
  private readonly element = new ScannedElement();
  private readonly names = new Names();
  private readonly stack: { name: string; local: string }[] = [];
  private rest: Uint8Array | undefined;
  private started = false;
  private rootClosed = false;

  constructor(private readonly handler: XmlHandler & { wantsText?: () => boolean }) {}

  write(chunk: Uint8Array): void {
    let bytes = chunk;
    if (this.rest) {
      bytes = new Uint8Array(this.rest.length + chunk.length);
      bytes.set(this.rest);
      bytes.set(chunk, this.rest.length);
    }
    const at = this.scan(bytes, false);
    // A copy, not a view: the chunk's bytes may be released (./zip-read.ts inflateItem) before the next write or end().
    this.rest = at < bytes.length ? bytes.slice(at) : undefined;
    if (this.rest && this.rest.length > MAX_TOKEN) throw notPlain;
  }

  end(): void {
    const bytes = this.rest ?? new Uint8Array(0);
    this.rest = undefined;
    if (this.scan(bytes, true) < bytes.length || !this.rootClosed) throw notPlain;
  }

  /** The XML declaration (UTF-8 or none), after an optional UTF-8 BOM; -1 until enough bytes have come. */
  private prolog(bytes: Uint8Array, final: boolean): number {
    if (bytes.length < 6 && !final) return -1;
    let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    if (bytes[at] !== LT) throw notPlain;
    if (bytes[at + 1] !== QUESTION) return at;
    const close = bytes.indexOf(GT, at);
    if (close < 0) {
      if (final || bytes.length > 512) throw notPlain;
      return -1;
    }
    const match = DECLARATION.exec(ascii(bytes, at, close + 1));
    if (!match || (match[3] !== undefined && !/^utf-?8$/i.test(match[3]))) throw notPlain;
    at = close + 1;
    return at;
  }

  /** Scans complete tokens from `at`; returns where the first incomplete one starts. */
  private scan(bytes: Uint8Array, final: boolean): number {
    let at = 0;
    if (!this.started) {
      at = this.prolog(bytes, final);
      if (at < 0) return 0;
      this.started = true;
    }
    const length = bytes.length;
    while (at < length) {
      const lt = this.text(bytes, at, final);
      if (lt < 0) return at;
      if (lt === length) return length;
      const next = lt + 1 < length ? bytes[lt + 1]! : -1;
      let end: number;
      if (next === SLASH) end = this.closeTag(bytes, lt);
      else if (next === -1) end = -1;
      else if (isNameStart(next)) end = this.openTag(bytes, lt);
      else throw notPlain;
      if (end < 0) {
        if (final) throw notPlain;
        return lt;
      }
      at = end;
    }
    return at;
  }

  /**
   * The text from `start` to the next "<", checked in the same pass that finds it (and handed over
   * when the handler wants it): that "<"'s index; the bytes' end when the part ends there; -1 when
   * the bytes end first (the text is carried to the next chunk).
   */
  private text(bytes: Uint8Array, start: number, final: boolean): number {
    const length = bytes.length;
    let plain = true;
    let blank = true;
    let i = start;
    for (; i < length; i++) {
      const b = bytes[i]!;
      if (b === LT) break;
      if (b >= 0x20 && b < 0x80) {
        if (b !== 0x20) blank = false;
        if (b === AMP) plain = false;
        else if (b === RBRACKET && bytes[i + 1] === RBRACKET && bytes[i + 2] === GT) throw notPlain;
      } else if (b === 0x0a || b === 0x09) continue;
      else if (b === CR || b >= 0x80) plain = blank = false;
      else throw notPlain;
    }
    if (i === length && !final) return -1;
    if (i === start) return i;
    // Outside the root element only white space may stand (CR is not plain, but may be white space).
    if (this.stack.length === 0 && !blank && !/^[ \t\r\n]*$/.test(decodeComplex(bytes, start, i, false))) throw notPlain;
    // Non-ASCII text is checked (UTF-8, XML characters, references) whether or not it is wanted.
    const wanted = this.handler.text !== undefined && (this.handler.wantsText?.() ?? true);
    if (!plain && !wanted) decodeComplex(bytes, start, i, false);
    if (wanted) this.handler.text!(plain ? ascii(bytes, start, i) : decodeComplex(bytes, start, i, false));
    return i;
  }

  private closeTag(bytes: Uint8Array, lt: number): number {
    const length = bytes.length;
    let i = lt + 2;
    if (i >= length) return -1;
    if (!isNameStart(bytes[i]!)) throw notPlain;
    const nameStart = i;
    while (i < length && isName(bytes[i]!)) i++;
    const nameEnd = i;
    while (i < length && isSpace(bytes[i]!)) i++;
    if (i >= length) return -1;
    if (bytes[i] !== GT) throw notPlain;
    const top = this.stack.pop();
    if (!top || top.name.length !== nameEnd - nameStart) throw notPlain;
    for (let k = 0; k < top.name.length; k++) if (top.name.charCodeAt(k) !== bytes[nameStart + k]) throw notPlain;
    if (this.stack.length === 0) this.rootClosed = true;
    this.handler.close?.(top.name, top.local);
    return i + 1;
  }

  /** Reads a start tag's attributes into the element; the index past the tag, or -1 when it is incomplete. */
  private attributes(bytes: Uint8Array, from: number): number {
    const element = this.element;
    const length = bytes.length;
    let i = from;
    let count = 0;
    for (;;) {
      const spaced = i < length && isSpace(bytes[i]!);
      while (i < length && isSpace(bytes[i]!)) i++;
      if (i >= length) return -1;
      const b = bytes[i]!;
      if (b === GT || b === SLASH) break;
      if (!spaced || !isNameStart(b) || count === MAX_ATTRIBUTES) throw notPlain;
      element.nameStart[count] = i;
      element.localStart[count] = i;
      while (i < length && isName(bytes[i]!)) {
        if (bytes[i] === COLON && element.localStart[count] === element.nameStart[count]) element.localStart[count] = i + 1;
        i++;
      }
      element.nameEnd[count] = i;
      while (i < length && isSpace(bytes[i]!)) i++;
      if (i >= length) return -1;
      if (bytes[i] !== EQ) throw notPlain;
      i++;
      while (i < length && isSpace(bytes[i]!)) i++;
      if (i >= length) return -1;
      const quote = bytes[i]!;
      if (quote !== QUOT && quote !== APOS) throw notPlain;
      const valueStart = ++i;
      let plain = 1;
      let close = valueStart;
      for (; close < length; close++) {
        const c = bytes[close]!;
        if (c === quote) break;
        if (c === LT) throw notPlain;
        if (c < 0x20 || c >= 0x80 || c === AMP) {
          if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== CR) throw notPlain;
          plain = 0;
        }
      }
      if (close === length) return -1;
      element.valueStart[count] = valueStart;
      element.valueEnd[count] = close;
      element.plain[count] = plain;
      // Checked now (UTF-8, references) whether or not the handler reads it.
      if (plain === 0) decodeComplex(bytes, valueStart, close, true);
      count++;
      i = close + 1;
    }
    element.count = count;
    for (let a = 1; a < count; a++) {
      for (let b = 0; b < a; b++) {
        const [s1, e1, s2, e2] = [element.nameStart[a]!, element.nameEnd[a]!, element.nameStart[b]!, element.nameEnd[b]!];
        if (e1 - s1 !== e2 - s2) continue;
        let same = true;
        for (let k = 0; k < e1 - s1 && same; k++) same = bytes[s1 + k] === bytes[s2 + k];
        if (same) throw notPlain;
      }
    }
    return i;
  }

  private openTag(bytes: Uint8Array, lt: number): number {
    const length = bytes.length;
    let i = lt + 1;
    const nameStart = i;
    while (i < length && isName(bytes[i]!)) i++;
    if (i >= length) return -1;
    const nameEnd = i;
    const at = this.attributes(bytes, i);
    if (at < 0) return -1;
    i = at;
    const selfClosing = bytes[i] === SLASH;
    if (selfClosing) {
      if (i + 1 >= length) return -1;
      if (bytes[i + 1] !== GT) throw notPlain;
      i++;
    }
    if (this.rootClosed || this.stack.length >= MAX_XML_DEPTH) throw notPlain;
    const names = this.names.get(bytes, nameStart, nameEnd);
    const element = this.element;
    element.bytes = bytes;
    element.name = names.name;
    element.local = names.local;
    this.stack.push(names);
    this.handler.open?.(element);
    if (selfClosing) {
      this.stack.pop();
      if (this.stack.length === 0) this.rootClosed = true;
      this.handler.close?.(names.name, names.local);
    }
    return i + 1;
  }
}

/**
 * Streams a part through `handler` with the scanner: true when the whole part was read so; false
 * when it is not plain XML, with the budget as it was before (the caller starts its reader again
 * and calls parseXmlPart). `handler.wantsText`, when given, says whether text now would be used.
 */
export function scanXmlPart(item: ZipItem, budget: Budget, handler: XmlHandler & { wantsText?: () => boolean }): boolean {
  const mark = budget.usage;
  const scanner = new XmlScanner(handler);
  try {
    inflateItem(item, budget, (chunk) => {
      budget.parse(chunk.length);
      scanner.write(chunk);
    });
    scanner.end();
    return true;
  } catch (error) {
    if (!(error instanceof NotPlain)) throw error;
    budget.restore(mark);
    return false;
  }
}

// Bytes of an XML part → text, as an XML processor decodes them (XML 1.0 §4.3.3 and Appendix F):
// a byte-order mark decides (UTF-8, UTF-16 LE/BE); without one, "<" in UTF-16 shows the byte
// order; otherwise the encoding the XML declaration names, UTF-8 when it names none. Streamed:
// pieces in, text out, never the whole part at once. Malformed bytes, UTF-32/EBCDIC, an encoding
// we do not decode, or a declaration that contradicts the bytes are refused.
import { unsupported, type PackageKind } from "./errors.ts";
import { printable } from "./part-names.ts";

/** Encodings an XML part may be in; ASCII-compatible ones are read by their declaration. */
const ASCII_COMPATIBLE = new Map([
  ["utf-8", "utf-8"],
  ["utf8", "utf-8"],
  ["us-ascii", "windows-1252"],
  ["ascii", "windows-1252"],
  ["iso-8859-1", "windows-1252"],
  ["latin1", "windows-1252"],
  ["windows-1252", "windows-1252"],
]);
/** Bytes enough to hold any XML declaration we read (its encoding must be within them). */
const SNIFF = 256;

type Detected = { encoding: "utf-8" | "utf-16le" | "utf-16be"; skip: number } | { declared: true };

function detect(head: Uint8Array): Detected {
  const [a, b, c, d] = head;
  if (a === 0xef && b === 0xbb && c === 0xbf) return { encoding: "utf-8", skip: 3 };
  if (a === 0xff && b === 0xfe) return { encoding: "utf-16le", skip: 2 };
  if (a === 0xfe && b === 0xff) return { encoding: "utf-16be", skip: 2 };
  // "<" then any ASCII character in two-byte units: UTF-16 without a BOM (XML requires one, but a
  // reader that guesses would see the markup, so it is read, and checked, as such).
  if (a === 0x3c && b === 0x00 && d === 0x00) return { encoding: "utf-16le", skip: 0 };
  if (a === 0x00 && b === 0x3c && c === 0x00) return { encoding: "utf-16be", skip: 0 };
  return { declared: true };
}

/** The encoding an XML declaration at the start of `text` names, lower-cased; undefined when none. */
function declaredEncoding(text: string): string | undefined {
  if (!text.startsWith("<?xml")) return undefined;
  const end = text.indexOf("?>");
  const declaration = end < 0 ? text : text.slice(0, end);
  return /\sencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["']/.exec(declaration)?.[1]?.toLowerCase();
}

export class XmlDecoder {
  private decoder: TextDecoder | undefined;
  private head: Uint8Array | undefined = new Uint8Array(0);
  constructor(
    private readonly part: string,
    private readonly kind: PackageKind,
  ) {}

  /** Text decoded from the bytes so far (possibly ""; the first call may wait for enough bytes to sniff). */
  write(bytes: Uint8Array): string {
    if (this.decoder) return this.decode(bytes, true);
    const head = new Uint8Array(this.head!.length + bytes.length);
    head.set(this.head!);
    head.set(bytes, this.head!.length);
    if (head.length < SNIFF) {
      this.head = head;
      return "";
    }
    return this.start(head);
  }

  /** The rest of the text; the part ends here. */
  end(): string {
    if (!this.decoder) return this.start(this.head!) + this.decode(new Uint8Array(0), false);
    return this.decode(new Uint8Array(0), false);
  }

  private start(head: Uint8Array): string {
    this.head = undefined;
    const found = detect(head);
    let encoding: string;
    let skip = 0;
    if ("declared" in found) {
      const name = declaredEncoding(new TextDecoder("windows-1252").decode(head.subarray(0, SNIFF))) ?? "utf-8";
      const known = ASCII_COMPATIBLE.get(name);
      if (!known) {
        const why = name.startsWith("utf-16")
          ? "declares UTF-16 but has neither a byte-order mark nor UTF-16 bytes"
          : `is in an encoding we do not read (${name})`;
        throw this.refuse(why);
      }
      encoding = known;
    } else {
      ({ encoding, skip } = found);
      // A declaration that names another encoding than the bytes are in is a fatal error in XML.
      const name = declaredEncoding(new TextDecoder(encoding).decode(head.subarray(skip, skip + SNIFF * 2)));
      const family = encoding === "utf-8" ? /^utf-?8$/ : /^utf-?16(le|be)?$/;
      if (name !== undefined && !family.test(name)) throw this.refuse(`declares ${name} but is in ${encoding.toUpperCase()}`);
    }
    this.decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
    return this.decode(head.subarray(skip), true);
  }

  private decode(bytes: Uint8Array, stream: boolean): string {
    try {
      return this.decoder!.decode(bytes, { stream });
    } catch {
      throw this.refuse(`is not valid ${this.decoder!.encoding.toUpperCase()}`);
    }
  }

  private refuse(why: string) {
    return unsupported("malformed", this.kind, `the XML part ${printable(this.part)} ${why}`);
  }
}

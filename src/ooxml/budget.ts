// What one package may cost to read, counted as it is read (never taken from what the zip
// declares): bytes inflated across all entries, bytes of XML parsed, and bytes held in memory for
// what is built from them (decoded text, rewritten parts, the result). The last one counts what V8's
// heap cap does not: inflated buffers and zips live outside the heap, so the heap cap alone does
// not bound a worker's RSS.
import { PackageTooLarge, type PackageKind } from "./errors.ts";

export interface PackageLimits {
  /** Zip entries (directories included). */
  entries: number;
  /** Bytes all entries inflate to, together. */
  expandedBytes: number;
  /** Bytes of XML parts parsed, together: the work a reader does is proportional to it. */
  xmlBytes: number;
  /** Bytes held at once for what is built from the package (see Budget.hold). */
  memoryBytes: number;
  /**
   * "bound": an entry may not inflate past the size the zip's directory declares for it (stopped
   * the moment it does, 413). Otherwise only the bounds above stop a lying entry.
   */
  declaredSizes?: "bound" | "hint";
}

export class Budget {
  private inflated = 0;
  private xml = 0;
  private held = 0;
  constructor(
    readonly limits: PackageLimits,
    readonly kind: PackageKind,
  ) {}

  /** Bytes an entry inflated to (every entry, kept or not). */
  inflate(bytes: number): void {
    this.inflated += bytes;
    if (this.inflated > this.limits.expandedBytes) {
      const limit = this.limits.expandedBytes;
      throw new PackageTooLarge("expanded", `The ${this.kind.name} expands to more than ${limit} bytes`, { limit });
    }
  }

  /** Bytes of XML handed to a parser. */
  parse(bytes: number): void {
    this.xml += bytes;
    this.checkXml(this.xml);
  }

  /**
   * What the zip's directory says the entries (all, or the XML ones) inflate to: a package that
   * declares more than a bound is refused before anything is inflated. A package that declares
   * less is not believed: the bytes are counted as they are inflated.
   */
  declared(all: number, xml: number): void {
    if (all > this.limits.expandedBytes) this.inflate(all - this.inflated);
    this.checkXml(xml);
  }

  private checkXml(xml: number): void {
    if (xml > this.limits.xmlBytes) {
      const limit = this.limits.xmlBytes;
      throw new PackageTooLarge(
        "xml",
        `The ${this.kind.name} holds more than ${limit} bytes of XML, more than any document the gateway can hold needs; send a smaller document`,
        { reason: "xml_bytes", limit },
      );
    }
  }

  /** Bytes kept in memory from here on (a buffer, a string at two bytes a character). */
  hold(bytes: number): void {
    this.held += bytes;
    if (this.held > this.limits.memoryBytes) {
      const limit = this.limits.memoryBytes;
      throw new PackageTooLarge("memory", `Reading this ${this.kind.name} needs more than the ${limit} bytes an import may hold`, {
        reason: "import_memory",
        limit,
      });
    }
  }

  /** Bytes no longer held. */
  release(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }

  /** Back to what `usage` said: a part read again from the start (./xml-scan.ts) is not counted twice. */
  restore(usage: { inflated: number; xml: number; held: number }): void {
    ({ inflated: this.inflated, xml: this.xml, held: this.held } = usage);
  }

  get usage(): { inflated: number; xml: number; held: number } {
    return { inflated: this.inflated, xml: this.xml, held: this.held };
  }
}

// xl/sharedStrings.xml: each distinct text once, cells pointing at it by index. Measured against
// inline strings (bench/sheets-write.ts): smaller files and faster writes whenever texts repeat,
// as columns of categories, names and statuses do, and Excel converts inline strings to shared
// ones on load anyway. The table holds each distinct text once while the sheets are written.
import { needsPreserve, xmlText } from "./write-xml.ts";

/** Distinct texts per sst batch: bounds the strings joined at once. */
const BATCH = 4096;

export class SharedStrings {
  private readonly indexes = new Map<string, number>();
  private readonly texts: string[] = [];
  /** Cells that point into the table (the sst's count). */
  private references = 0;

  /** The index of `text`, added when new. */
  index(text: string): number {
    this.references++;
    let index = this.indexes.get(text);
    if (index === undefined) {
      index = this.texts.length;
      this.texts.push(text);
      this.indexes.set(text, index);
    }
    return index;
  }

  /** The sst part, in batches; iterate after the sheets are written. */
  *xml(): Generator<string> {
    yield `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${this.references}" uniqueCount="${this.texts.length}">`;
    let batch = "";
    for (let i = 0; i < this.texts.length; i++) {
      batch += siXml(this.texts[i]!);
      if (i % BATCH === BATCH - 1) {
        yield batch;
        batch = "";
      }
    }
    yield `${batch}</sst>`;
  }
}

/** One text as a `<si>` (shared) or `<is>` (inline) element's content. */
export const textElement = (text: string): string =>
  needsPreserve(text) ? `<t xml:space="preserve">${xmlText(text)}</t>` : `<t>${xmlText(text)}</t>`;

const siXml = (text: string) => `<si>${textElement(text)}</si>`;

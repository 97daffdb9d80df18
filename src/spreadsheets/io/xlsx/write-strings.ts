// xl/sharedStrings.xml: each distinct text once, cells pointing at it by index; once the table
// holds `limit` texts, a text not in it is written inline in its cell (t="inlineStr"; a sheet may
// mix both, and Excel turns inline texts into shared ones on load). Measured on 100,000 × 10 text
// cells (`npm run bench:sheets`, CPU time): a table of every text is the smallest and fastest when
// texts repeat (4 statuses: 2.71 MB against 3.18 MB inline) but the slowest and largest when they
// do not (distinct ids: 1.8 s and 5.8 MB against 0.8 s and 3.4 MB inline); a table capped at
// 65,536 texts keeps the first case's size and most of the second's gain (1.4 s, 3.5 MB), and
// bounds the memory the table holds however many texts a workbook has.
import { needsPreserve, xmlText } from "./write-xml.ts";

/** Distinct texts per sst batch: bounds the strings joined at once. */
const BATCH = 4096;

/** The default cap on distinct texts in the table. */
export const SHARED_STRINGS_LIMIT = 65_536;

export class SharedStrings {
  private readonly indexes = new Map<string, number>();
  private readonly texts: string[] = [];
  /** Cells that point into the table (the sst's count). */
  private references = 0;

  constructor(private readonly limit = SHARED_STRINGS_LIMIT) {}

  /** The index of `text`, added when new and the table has room; -1 to write it inline. */
  index(text: string): number {
    let index = this.indexes.get(text);
    if (index === undefined) {
      if (this.texts.length >= this.limit) return -1;
      index = this.texts.length;
      this.texts.push(text);
      this.indexes.set(text, index);
    }
    this.references++;
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

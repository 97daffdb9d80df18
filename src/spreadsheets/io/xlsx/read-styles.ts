// styles.xml → the number format code of each cell style (a cell's `s` is an index into
// cellXfs): custom numFmts by id, else the built-in ones. Only what the cell model keeps.
import { parseXmlPart, type Budget, type ZipItem } from "../../../ooxml/index.ts";
import { dateKindOf } from "../../cells/formats.ts";
import { builtInFormat } from "./number-formats.ts";

export interface CellStyles {
  /** The format code of each style (a cell's `s`); undefined for General. */
  formats: (string | undefined)[];
  /** Whether each style shows a date, a date and time or a time of day (durations such as [h]:mm do not). */
  dates: boolean[];
}

export function readStyles(item: ZipItem | undefined, budget: Budget): CellStyles {
  if (!item) return { formats: [], dates: [] };
  const custom = new Map<number, string>();
  const xfFormats: number[] = [];
  let inCellXfs = 0;
  parseXmlPart(item, budget, {
    open(element) {
      if (element.local === "numFmt") {
        const id = Number(element.attribute("numFmtId"));
        const code = element.attribute("formatCode");
        if (Number.isInteger(id) && code !== undefined) custom.set(id, code);
      } else if (element.local === "cellXfs") {
        inCellXfs++;
      } else if (element.local === "xf" && inCellXfs > 0) {
        xfFormats.push(Number(element.attribute("numFmtId") ?? 0) || 0);
      }
    },
    close(_name, local) {
      if (local === "cellXfs") inCellXfs--;
    },
  });
  // LibreOffice declares General as a custom format: it is still General (no format).
  const formats = xfFormats
    .map((id) => custom.get(id) ?? builtInFormat(id))
    .map((code) => (code === undefined || /^general$/i.test(code.trim()) ? undefined : code));
  return { formats, dates: formats.map((code) => code !== undefined && dateKindOf(code) !== null) };
}

// xl/styles.xml: one cell format (cellXfs entry) per distinct number format the sheets use, in the
// order first met; index 0 is General. A format Excel numbers itself (ECMA-376 §18.8.30) takes
// its built-in id; any other is a custom numFmt numbered from 164 up.
import { xmlAttr } from "./write-xml.ts";

/** The built-in formats whose codes are fixed (14's "mm-dd-yy" is as the standard spells it; Excel shows it in the reader's short-date form). */
const BUILT_IN = new Map<string, number>([
  ["General", 0],
  ["0", 1],
  ["0.00", 2],
  ["#,##0", 3],
  ["#,##0.00", 4],
  ["0%", 9],
  ["0.00%", 10],
  ["0.00E+00", 11],
  ["# ?/?", 12],
  ["# ??/??", 13],
  ["mm-dd-yy", 14],
  ["d-mmm-yy", 15],
  ["d-mmm", 16],
  ["mmm-yy", 17],
  ["h:mm AM/PM", 18],
  ["h:mm:ss AM/PM", 19],
  ["h:mm", 20],
  ["h:mm:ss", 21],
  ["m/d/yy h:mm", 22],
  ["#,##0 ;(#,##0)", 37],
  ["#,##0 ;[Red](#,##0)", 38],
  ["#,##0.00;(#,##0.00)", 39],
  ["#,##0.00;[Red](#,##0.00)", 40],
  ["mm:ss", 45],
  ["[h]:mm:ss", 46],
  ["mmss.0", 47],
  ["##0.0E+0", 48],
  ["@", 49],
]);

const FIRST_CUSTOM = 164;

/** The number formats met while the sheets are written, and the styles part that declares them. */
export class NumberFormats {
  /** Format code → cellXfs index (the cell's `s`). */
  private readonly styles = new Map<string, number>([["General", 0]]);
  /** numFmtId of each cellXfs entry, by index. */
  private readonly ids: number[] = [0];
  /** Custom formats: [id, code]. */
  private readonly custom: [number, string][] = [];

  /** The `s` attribute's value for a cell with `numFmt` (0: General, written as no attribute). */
  style(numFmt: string): number {
    let index = this.styles.get(numFmt);
    if (index === undefined) {
      let id = BUILT_IN.get(numFmt);
      if (id === undefined) {
        id = FIRST_CUSTOM + this.custom.length;
        this.custom.push([id, numFmt]);
      }
      index = this.ids.length;
      this.ids.push(id);
      this.styles.set(numFmt, index);
    }
    return index;
  }

  /** xl/styles.xml; call after the sheets are written. */
  xml(): string {
    const numFmts =
      this.custom.length === 0
        ? ""
        : `<numFmts count="${this.custom.length}">${this.custom.map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${xmlAttr(code)}"/>`).join("")}</numFmts>`;
    const xfs = this.ids
      .map((id) => `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0" xfId="0"${id === 0 ? "" : ' applyNumberFormat="1"'}/>`)
      .join("");
    return (
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n` +
      `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${numFmts}` +
      `<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>` +
      `<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
      `<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
      `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
      `<cellXfs count="${this.ids.length}">${xfs}</cellXfs>` +
      `<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>` +
      `<dxfs count="0"/><tableStyles count="0"/></styleSheet>`
    );
  }
}

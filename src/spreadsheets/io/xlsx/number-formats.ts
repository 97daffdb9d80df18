// Number format codes by the built-in ids a workbook may use without declaring them (ECMA-376
// Part 1, §18.8.30). Whether a code shows a date is the engine's call (../../cells/formats.ts).

/** Built-in formats by id; 0 (General) is absent. Locale-dependent date ids (27–36, 50–58) read as ISO dates. */
const BUILT_IN = new Map<number, string>([
  [1, "0"],
  [2, "0.00"],
  [3, "#,##0"],
  [4, "#,##0.00"],
  [9, "0%"],
  [10, "0.00%"],
  [11, "0.00E+00"],
  [12, "# ?/?"],
  [13, "# ??/??"],
  [14, "mm-dd-yy"],
  [15, "d-mmm-yy"],
  [16, "d-mmm"],
  [17, "mmm-yy"],
  [18, "h:mm AM/PM"],
  [19, "h:mm:ss AM/PM"],
  [20, "h:mm"],
  [21, "h:mm:ss"],
  [22, "m/d/yy h:mm"],
  [37, "#,##0 ;(#,##0)"],
  [38, "#,##0 ;[Red](#,##0)"],
  [39, "#,##0.00;(#,##0.00)"],
  [40, "#,##0.00;[Red](#,##0.00)"],
  [45, "mm:ss"],
  [46, "[h]:mm:ss"],
  [47, "mmss.0"],
  [48, "##0.0E+0"],
  [49, "@"],
]);
for (const id of [27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58]) BUILT_IN.set(id, "yyyy-mm-dd");
for (const id of [32, 33]) BUILT_IN.set(id, "h:mm:ss");

export const builtInFormat = (id: number): string | undefined => BUILT_IN.get(id);

// A CSV import writes the reader's rows into the model in blocks (src/spreadsheets/pool/jobs.ts,
// Workbook.fromBlocks) instead of one copy of the whole sheet's values: the workbook must be the
// one the whole-sheet path built, empty rows at and across block edges included. The job's bytes
// are freed once decoded (the worker's peak during a large import).
import { describe, expect, it } from "vitest";
import { createWorkbook, importWorkbook } from "../../src/spreadsheets/pool/jobs.ts";

const options = { maxCells: 2_000_000, cacheCells: 0, budget: { maxSteps: 200_000_000, maxMs: 10_000 } };

describe("CSV import in blocks", () => {
  it("gives the same workbook as writing the whole sheet at once, blank rows at block edges included", () => {
    const blank = new Set([0, 998, 999, 1_000, 1_001, 2_000, 2_001, 2_499]);
    const lines = Array.from({ length: 2_500 }, (_, r) =>
      blank.has(r) ? "" : `r${r},${r * 1.5},=B${r + 1}*2,${r % 7 === 0 ? "TRUE" : ""}`,
    );
    const csv = `${lines.join("\n")}\nlast,1,=SUM(B1:B2500)\n`;
    const imported = importWorkbook(new TextEncoder().encode(csv), "csv", "Data", "parse", options).model.workbook;
    const whole = createWorkbook([{ name: "Data", csv }], "parse", options).model.workbook;
    const everything = (workbook: typeof whole) => workbook.read("Data!A1:D2501", { render: "both", maxCells: 20_000 });
    const read = everything(imported);
    expect(read.values).toEqual(everything(whole).values);
    const sum = lines.reduce((total, line, r) => (line ? total + r * 1.5 : total), 0);
    expect(read.values[2_500]).toEqual(["last", 1, { value: sum, formula: "=SUM(B1:B2500)" }, null]);
    expect(read.values[1]).toEqual(["r1", 1.5, { value: 3, formula: "=B2*2" }, null]);
    expect([read.values[0], read.values[999], read.values[1_000]]).toEqual([Array(4).fill(null), Array(4).fill(null), Array(4).fill(null)]);
    expect(read.values[999]).toEqual([null, null, null, null]);
  });

  it("refuses past the limits as the rows meet them, as the pass before the rows did", () => {
    const refusal = (csv: string, maxCells = 2_000_000) => {
      try {
        importWorkbook(new TextEncoder().encode(csv), "csv", "Data", "parse", { ...options, maxCells });
      } catch (error) {
        return { message: (error as Error).message, details: (error as { details?: unknown }).details };
      }
      return undefined;
    };
    expect(refusal(`a\n${"x,".repeat(16_384)}x\n`)?.details).toEqual({ reason: "columns", limit: 16_384 });
    expect(refusal("a,b,c\nd,e,f\n", 5)).toEqual({
      message: "The .csv holds more than 5 non-empty cells",
      details: { reason: "cells", limit: 5 },
    });
    // The long field (row 2) comes before the sixth cell (row 3): it is the one named.
    expect(refusal(`a\n${"y".repeat(32_768)}\nb,c,d,e,f,g\n`, 5)).toEqual({
      message: "The .csv has a field over 32767 characters (row 2)",
      details: { reason: "cell_text", limit: 32_767 },
    });
    expect(refusal("a,b\n\nc,d\n", 4)).toBeUndefined();
  });

  it("gives the upload's bytes back once the text is decoded, and builds the same workbook from the text", () => {
    const bytes = new TextEncoder().encode("name,amount\nalpha,1\nbeta,2\n");
    const imported = importWorkbook(bytes, "csv", "Data", "parse", options).model.workbook;
    expect([bytes.byteLength, bytes.buffer.byteLength]).toEqual([0, 0]);
    expect(imported.read("Data!A1:B3", { render: "value", maxCells: 10 }).values).toEqual([
      ["name", "amount"],
      ["alpha", 1],
      ["beta", 2],
    ]);
  });
});

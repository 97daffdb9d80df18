// TEXTSPLIT (Microsoft's examples: one delimiter, several, rows and columns, padding), PHONETIC and ENCODEURL.
import { describe, expect, it } from "vitest";
import { near } from "./book.ts";
import { result, workbook } from "./results.ts";

const wb = workbook([["Dakota Lennon Sanchez", 12]]);
const F = (f: string) => result(wb, `=${f}`);

describe("TEXTSPLIT", () => {
  it("splits by columns, rows, several delimiters, and pads with #N/A", () => {
    expect(F('TEXTSPLIT(A1," ")')).toEqual([["Dakota", "Lennon", "Sanchez"]]);
    expect(F('TEXTSPLIT("1,2,3;4,5,6",",",";")')).toEqual([
      ["1", "2", "3"],
      ["4", "5", "6"],
    ]);
    expect(F('TEXTSPLIT("Do. Or do not. There is no try. -Anonymous",,".")')).toEqual([
      ["Do"],
      [" Or do not"],
      [" There is no try"],
      [" -Anonymous"],
    ]);
    expect(F('TEXTSPLIT("Do. Or do not. There is no try. -Anonymous"," ",".",TRUE)')).toEqual([
      ["Do", { error: "#N/A" }, { error: "#N/A" }, { error: "#N/A" }],
      ["Or", "do", "not", { error: "#N/A" }],
      ["There", "is", "no", "try"],
      ["-Anonymous", { error: "#N/A" }, { error: "#N/A" }, { error: "#N/A" }],
    ]);
    expect(F('TEXTSPLIT("a-b_c",{"-","_"})')).toEqual([["a", "b", "c"]]);
    expect(F('TEXTSPLIT("aXbxc","x",,,1)')).toEqual([["a", "b", "c"]]);
    expect(F('TEXTSPLIT("a,,b",",",,TRUE)')).toEqual([["a", "b"]]);
    expect(F('TEXTSPLIT("a,b;c",",",";",,,"-")')).toEqual([
      ["a", "b"],
      ["c", "-"],
    ]);
  });

  it.each<[string, number | string]>([
    ['TEXTSPLIT("abc","")', "#VALUE!"],
    ["PHONETIC(A1)", "Dakota Lennon Sanchez"],
    [
      'ENCODEURL("http://contoso.sharepoint.com/Finance/Profit and Loss Statement.xlsx")',
      "http%3A%2F%2Fcontoso.sharepoint.com%2FFinance%2FProfit%20and%20Loss%20Statement.xlsx",
    ],
    ["ENCODEURL(B1)", "12"],
  ])("=%s is %s", (f, e) => near(F(f), e));
});

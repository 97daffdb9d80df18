// formulaTokens tokenizes once per template (the text with its row numbers masked) and gives each
// formula of the template its own values: the tokens must be those the tokenizer gives the text.
import { tokenize } from "@borgar/fx";
import { describe, expect, it } from "vitest";
import { formulaTokens } from "../../src/spreadsheets/formula/tokens.ts";

const direct = (text: string, withLocation = false) =>
  tokenize(`=${text}`, { mergeRefs: true, allowTernary: false, withLocation }).filter((t) => t.type !== "fx_prefix");

describe("formulaTokens by template", () => {
  it("gives each formula of a column its own references", () => {
    for (const text of ["B2*2+SUM($C$1:C2)", "B3*2+SUM($C$1:C3)", "B9*2+SUM($C$1:C9)", "Sheet2!B7*2+SUM($C$1:C7)"])
      expect(formulaTokens(text)).toEqual(direct(text));
  });

  it("tells a valid row number from an invalid one of the same length", () => {
    for (const text of ["A1048576+1", "A1048577+1", "A1048576+1", "B1+1", "B0+1", "B1+1", "B01+1"])
      expect(formulaTokens(text)).toEqual(direct(text));
  });

  it("keeps strings, names, functions and locations as the tokenizer gives them", () => {
    for (const text of ['LOG10(X2)&"a1"', 'LOG10(X3)&"a2"', "TAX2023*2", "TAX2024*2", "_xlfn.LET(_xlpm.x1,A1,_xlpm.x1+1)"]) {
      const mine = formulaTokens(text, true);
      expect(mine.map((t) => t.loc)).toEqual(direct(text, true).map((t) => t.loc));
      expect(formulaTokens(text).map((t) => t.type)).toEqual(direct(text).map((t) => t.type));
    }
    expect(formulaTokens("_xlfn.LET(_xlpm.x2,A2,_xlpm.x2+1)").map((t) => t.value)).toContain("LET");
    expect(formulaTokens("_xlfn.LET(_xlpm.x2,A2,_xlpm.x2+1)").map((t) => t.value)).toContain("x2");
  });

  it("does not let one call's changes reach the next of the template", () => {
    const first = formulaTokens("C5+D5");
    first[0]!.value = "changed";
    expect(formulaTokens("C6+D6")).toEqual(direct("C6+D6"));
  });
});

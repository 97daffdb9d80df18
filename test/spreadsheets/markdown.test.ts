// GFM tables in and out: the GFM spec's table examples, the two liberties (pipes in code spans,
// extra cells kept), escapes, and the writer's output read back to the same texts for any text.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GatewayError } from "../../src/core/errors.ts";
import { markdownTable, parseMarkdownTable } from "../../src/spreadsheets/io/markdown.ts";
import type { CellValue } from "../../src/spreadsheets/cells/types.ts";

const rows = (markdown: string) => parseMarkdownTable(markdown).rows;

describe("parseMarkdownTable", () => {
  it("reads the header, the delimiter row's alignment, and the body (GFM examples 198, 199)", () => {
    expect(parseMarkdownTable("| foo | bar |\n| --- | --- |\n| baz | bim |")).toEqual({
      rows: [
        ["foo", "bar"],
        ["baz", "bim"],
      ],
      align: [null, null],
    });
    expect(parseMarkdownTable("| abc | defghi |\n:-: | -----------:\nbar | baz")).toEqual({
      rows: [
        ["abc", "defghi"],
        ["bar", "baz"],
      ],
      align: ["center", "right"],
    });
    expect(parseMarkdownTable("a | b | c\n:-- | --- | --:\n1 | 2 | 3").align).toEqual(["left", null, "right"]);
  });

  it("reads escaped pipes as pipes, in text, code and emphasis (GFM example 200)", () => {
    expect(rows("| f\\|oo  |\n| ------ |\n| b `\\|` az |\n| b **\\|** im |")).toEqual([["f|oo"], ["b `|` az"], ["b **|** im"]]);
  });

  it("does not split a cell at a pipe inside an inline code span", () => {
    expect(rows("| a | `x|y` |\n|---|---|\n| ``1|`2`` | b |\n| `open | c |")).toEqual([
      ["a", "`x|y`"],
      ["``1|`2``", "b"],
      ["`open", "c"],
    ]);
  });

  it("pads short rows with empty cells and keeps a long row's extra cells", () => {
    expect(rows("| a | b | c |\n|---|---|---|\n| 1 |\n| 1 | 2 | 3 | 4 |\n|  | x |")).toEqual([
      ["a", "b", "c"],
      ["1", "", ""],
      ["1", "2", "3", "4"],
      ["", "x", ""],
    ]);
  });

  it("ends the table at a blank line and ignores the text around it (GFM example 201)", () => {
    const markdown =
      "# Sales\r\n\r\nThe quarter in brief.\r\n\r\n| q | total |\r\n| - | ----: |\r\n| Q1 | 10 |\r\n| Q2 | 12 |\r\n\r\nbar | after\r\n";
    expect(rows(markdown)).toEqual([
      ["q", "total"],
      ["Q1", "10"],
      ["Q2", "12"],
    ]);
  });

  it("undoes backslash escapes before punctuation, reads <br> as a line break, and keeps other backslashes and markup", () => {
    expect(
      rows("| a |\n|---|\n| C:\\Users\\me |\n| 2 \\* 3 \\\\ 4 |\n| one<br>two<BR/>three<br />four |\n| \\<br> |\n| **bold** `code` |"),
    ).toEqual([["a"], ["C:\\Users\\me"], ["2 * 3 \\ 4"], ["one\ntwo\nthree\nfour"], ["<br>"], ["**bold** `code`"]]);
  });

  it("reads unicode and empty cells", () => {
    expect(rows("|  | Ventes été 📈 |\n|---|---|\n| 1 |  |")).toEqual([
      ["", "Ventes été 📈"],
      ["1", ""],
    ]);
  });

  it("refuses markdown without a table: no delimiter row, or one whose cells do not match the header (GFM example 203)", () => {
    for (const markdown of ["just text", "| abc | def |\n| --- |\n| bar |", "| a |\n| b |", "| a |\n|:-x-|", "", "a\n---"]) {
      expect(() => parseMarkdownTable(markdown), markdown).toThrow(GatewayError);
    }
    try {
      parseMarkdownTable("no table");
    } catch (error) {
      expect((error as GatewayError).code).toBe("BAD_USER_INPUT");
    }
  });
});

describe("markdownTable", () => {
  it("writes the first row as the header, right-aligns number columns, and shows values as Excel does", () => {
    const values: CellValue[][] = [
      ["Name", "Price", "Paid", "Note"],
      ["Apple", 1.5, true, { error: "#N/A" }],
      ["Pear", null, false, -0],
      ["Fig", 1e21],
    ];
    expect(markdownTable(values)).toEqual({
      markdown:
        "| Name | Price | Paid | Note |\n| --- | ---: | --- | --- |\n| Apple | 1.5 | TRUE | #N/A |\n| Pear |  | FALSE | 0 |\n| Fig | 1E+21 |  |  |\n",
      rows: 4,
      truncated: false,
    });
  });

  it("escapes pipes, backticks, backslashes before punctuation and line breaks", () => {
    const { markdown } = markdownTable([["a|b", "`code`", "C:\\dir\\", "x\\*y", "1\n2\r\n3", "<br>"]]);
    expect(markdown.split("\n")[0]).toBe("| a\\|b | \\`code\\` | C:\\dir\\\\ | x\\\\*y | 1<br>2<br>3 | \\<br> |");
  });

  it("writes nothing for no values, and stops at maxChars with whole rows", () => {
    expect(markdownTable([])).toEqual({ markdown: "", rows: 0, truncated: false });
    expect(markdownTable([[], []])).toEqual({ markdown: "", rows: 0, truncated: false });
    const values = Array.from({ length: 100 }, (_, i) => [`row ${i}`, i]);
    const bounded = markdownTable(values, { maxChars: 200 });
    expect(bounded.truncated).toBe(true);
    expect(bounded.markdown.length).toBeLessThanOrEqual(200);
    expect(bounded.markdown.endsWith("|\n")).toBe(true);
    expect(rows(bounded.markdown)).toEqual(values.slice(0, bounded.rows).map((row) => row.map(String)));
  });

  it("reads back the same texts for any table (white space at the ends trimmed, line breaks as LF)", () => {
    const unit = fc.constantFrom(
      "a",
      "é",
      "📈",
      "\\",
      "|",
      "`",
      "``",
      "<br>",
      "<BR />",
      "\\|",
      " ",
      "\t",
      "\n",
      "\r\n",
      "-",
      ":",
      "*",
      "=",
    );
    const text = fc.oneof(fc.string({ unit, maxLength: 12 }), fc.string({ unit: "grapheme", maxLength: 8 }));
    const table = fc
      .integer({ min: 1, max: 4 })
      .chain((width) => fc.array(fc.array(text, { minLength: width, maxLength: width }), { minLength: 1, maxLength: 5 }));
    fc.assert(
      fc.property(table, (values) => {
        // Line breaks are written as <br>, so only the white space before the first and after the last is trimmed.
        const trimmed = (cell: string) => {
          const lines = cell.split(/\r\n|\r|\n/);
          lines[0] = lines[0]!.trimStart();
          lines[lines.length - 1] = lines.at(-1)!.trimEnd();
          return lines.join("\n");
        };
        const expected = values.map((row) => row.map(trimmed));
        const read = rows(markdownTable(values).markdown);
        expect(read).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});

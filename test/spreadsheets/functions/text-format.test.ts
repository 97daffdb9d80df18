// TEXT's format codes where Excel differs from a plain number formatter: Microsoft's examples and
// the cases of the Excel corpus's format tests (empty formats, booleans into the text section,
// lower-case exponents, a/p, negative and repeated elapsed times).
import { describe, it } from "vitest";
import { near, sheet } from "./book.ts";

const R = sheet([[1234.567, 0.285, 39448.75, -3.14159, true, null, 3.14159]]);
const F = (f: string) => R(`=${f}`);

describe("TEXT", () => {
  it.each<[string, string]>([
    ['TEXT(A1,"$#,##0.00")', "$1,234.57"],
    ['TEXT(B1,"0.0%")', "28.5%"],
    ['TEXT(C1,"MM/DD/YY")', "01/01/08"],
    ['TEXT(C1,"dddd")', "Tuesday"],
    ['TEXT(C1,"h:MM AM/PM")', "6:00 PM"],
    ['TEXT(1234567.891,"#,##0")', "1,234,568"],
    ['TEXT(0.75,"# ?/?")', " 3/4"],
    ['TEXT(A1,"0.00E+00")', "1.23E+03"],
    ['TEXT(A1,"")', ""],
    ['TEXT(F1,"")', ""],
    ['TEXT(E1,"General")', "TRUE"],
    ['TEXT(FALSE,"General")', "FALSE"],
    ['TEXT(E1,";;;""-""@""-""")', "-TRUE-"],
    ['TEXT(123456.789,"0.0e+0")', "1.2e+5"],
    ['TEXT(123456.789,"|#.#|e-|#|")', "|1.2|e|5|"],
    ['TEXT(0.0000123456789,"|0,000000.0000|e+|0|")', "|0,000,123.4568|e|-7|"],
    ['TEXT(123456.789,"|#e-#,|")', "|1e5|"],
    ['TEXT(123456.789,"|#%e-#|")', "|1%e5|"],
    ['TEXT(19278.607951388887,"hh:mm:ss a/p")', "02:35:27 p"],
    ['TEXT(37653.1702084375,"H:M:S.00 a/p")', "4:5:6.01 a"],
    ['TEXT(D1,"[h]:m:s.000")', "-75:23:53.376"],
    ['TEXT(G1,"[s]"" [yes, ""ss""] seconds""")', "271433 [yes, 271433] seconds"],
    ['TEXT(G1,"""It was ""[h]"" [yes, ""h""] hours and ""mm:ss")', "It was 75 [yes, 75] hours and 23:53"],
    ['TEXT(1.5,"# ?/?")', "1 1/2"],
    ['TEXT(0.5,"# ??/??")', "  1/2 "],
    ['TEXT(2,"# ?/?")', "2    "],
    ['TEXT(1.25,"?/8")', "10/8"],
    ['TEXT(-1.5,"# ?/4")', "-1 2/4"],
    ['TEXT(3.75,"|#_#/#|")', "|15 /4|"],
    ['TEXT(-0.75,"|0\\:#=/=0|")', "-|0:3=/=4|"],
    ['TEXT(1,"|#\\:#=/=0|")', "|1|"],
    ['TEXT(1,"|#\\:?=/=0|")', "|1      |"],
    ['TEXT(0,"|#\\:0=/=#|")', "|0=/=1|"],
    ['TEXT(23.75,"|#\\:? ?0#/000")', "|2:3  03/004"],
    ['TEXT(1234567,"#,.#,")', "1.2"],
    ['TEXT(123.45,"0,0.00%%")', "1,234,500.00%%"],
    ['TEXT("abc","0.00")', "abc"],
    ['TEXT("12","0.00")', "12.00"],
    ['TEXT(1,"[Red")', "#VALUE!"],
  ])("=%s is %s", (f, e) => near(F(f), e));
});

// Statistical functions (descriptive, order statistics, regression): Microsoft's documented
// examples, each page's data typed into a column of the sheet, then Excel's edge and error cases.
import { describe, expect, it } from "vitest";
import { near, sheet, type Row } from "./book.ts";

/** Columns of data side by side (A, B, C …), from row 1. */
function columns(...cols: (string | number | boolean | null)[][]): Row[] {
  const height = Math.max(...cols.map((c) => c.length));
  return Array.from({ length: height }, (_, r) => cols.map((c) => c[r] ?? null));
}

const ev = sheet(
  columns(
    [1345, 1301, 1368, 1322, 1310, 1370, 1318, 1350, 1303, 1299], // A: VAR, STDEV
    [false, 0.2, 0.5, 0.4, 0.8], // B: MAXA, MINA
    [10, 7, 9, 2, "Not available", null], // C: AVERAGEA
    [4, 5, 8, 7, 11, 4, 3], // D: DEVSQ, GEOMEAN, HARMEAN
    [4, 5, 6, 7, 2, 3, 4, 5, 1, 2, 3], // E: TRIMMEAN
    [3, 4, 5, 2, 3, 4, 5, 6, 4, 7], // F: KURT, SKEW
    [1, 2, 3, 4, 3, 2, 1, 2, 3, 5, 6, 1], // G: MODE.MULT
    [7, 3.5, 3.5, 1, 2], // H: RANK
    [13, 12, 11, 8, 4, 3, 2, 1, 1, 1], // I: PERCENTRANK.INC
    [1, 2, 3, 6, 6, 6, 7, 8, 9], // J: PERCENTILE.EXC, PERCENTRANK.EXC
    [6, 7, 15, 36, 39, 40, 41, 42, 43, 47, 49], // K: QUARTILE.EXC
    [79, 85, 78, 85, 50, 81, 95, 88, 97], // L: FREQUENCY data
    [70, 79, 89], // M: FREQUENCY bins
    [0, 1, 2, 3], // N: PROB x
    [0.2, 0.3, 0.1, 0.4], // O: PROB p
    [4, 5, 6, 7, 5, 4, 3], // P: AVEDEV
    [1, "x", true, null, 5], // Q: mixed
  ),
  [
    {
      name: "Reg",
      values: columns(
        [2310, 2333, 2356, 2379, 2402, 2425, 2448, 2471, 2494, 2517, 2540],
        [2, 2, 3, 3, 2, 4, 2, 2, 3, 4, 2],
        [2, 2, 1.5, 2, 3, 2, 1.5, 2, 3, 4, 3],
        [20, 12, 33, 43, 53, 23, 99, 34, 23, 55, 22],
        [142000, 144000, 151000, 150000, 139000, 169000, 126000, 142900, 163000, 169000, 149000],
        [11, 12, 13, 14, 15, 16],
        [33100, 47300, 69000, 102000, 150000, 220000],
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
        [133890, 135000, 135790, 137300, 138130, 139100, 139900, 141120, 141890, 143230, 144000, 145290],
        [13, 14, 15, 16, 17],
      ),
    },
  ],
);

const R = (f: string) => ev(`=${f}`);

describe("descriptive statistics: Microsoft's examples", () => {
  it.each<[string, number | string]>([
    ["VAR(A1:A10)", 754.2666667],
    ["VAR.S(A1:A10)", 754.2666667],
    ["VARP(A1:A10)", 678.84],
    ["VAR.P(A1:A10)", 678.84],
    ["VARA(A1:A10)", 754.2666667],
    ["VARPA(A1:A10)", 678.84],
    ["STDEV(A1:A10)", 27.46391572],
    ["STDEV.S(A1:A10)", 27.46391572],
    ["STDEVP(A1:A10)", 26.05455814],
    ["STDEV.P(A1:A10)", 26.05455814],
    ["STDEVA(A1:A10)", 27.46391572],
    ["STDEVPA(A1:A10)", 26.05455814],
    ["MAXA(B1:B5)", 0.8],
    ["MINA(B1:B5)", 0],
    ["AVERAGEA(C1:C5)", 5.6],
    ["AVERAGEA(C1:C4,C6)", 7],
    ["AVEDEV(P1:P7)", 1.020408],
    ["DEVSQ(D1:D7)", 48],
    ["GEOMEAN(D1:D7)", 5.476987],
    ["HARMEAN(D1:D7)", 5.028376],
    ["TRIMMEAN(E1:E11,0.2)", 3.777778],
    ["KURT(F1:F10)", -0.151799637],
    ["SKEW(F1:F10)", 0.359543],
    ["SKEW.P(F1:F10)", 0.303193],
    ["STANDARDIZE(42,40,1.5)", 1.333333],
    ["MODE({5.6,4,4,3,2,4})", 4],
    ["MODE.SNGL({5.6,4,4,3,2,4})", 4],
    ["INDEX(MODE.MULT(G1:G12),3)", 3],
    ["ROWS(MODE.MULT(G1:G12))", 3],
  ])("=%s is %s", (f, e) => near(R(f), e));
});

describe("order statistics: Microsoft's examples", () => {
  it.each<[string, number | string]>([
    ["RANK(H2,H1:H5,1)", 3],
    ["RANK(H1,H1:H5,1)", 5],
    ["RANK.EQ(H2,H1:H5,1)", 3],
    ["RANK.EQ(H1,H1:H5)", 1],
    ["RANK.AVG(94,{89,88,92,101,94,97,95})", 4],
    ["RANK.AVG(H2,H1:H5)", 2.5],
    ["PERCENTILE({1,3,2,4},0.3)", 1.9],
    ["PERCENTILE.INC({1,3,2,4},0.3)", 1.9],
    ["PERCENTILE.EXC(J1:J9,0.25)", 2.5],
    ["PERCENTILE.EXC(J1:J9,0)", "#NUM!"],
    ["PERCENTILE.EXC(J1:J9,0.01)", "#NUM!"],
    ["PERCENTILE.EXC(J1:J9,2)", "#NUM!"],
    ["QUARTILE({1,2,4,7,8,9,10,12},1)", 3.5],
    ["QUARTILE.INC({1,2,4,7,8,9,10,12},1)", 3.5],
    ["QUARTILE.EXC(K1:K11,1)", 15],
    ["QUARTILE.EXC(K1:K11,3)", 43],
    ["PERCENTRANK.INC(I1:I10,2)", 0.333],
    ["PERCENTRANK.INC(I1:I10,4)", 0.555],
    ["PERCENTRANK.INC(I1:I10,8)", 0.666],
    ["PERCENTRANK.INC(I1:I10,5)", 0.583],
    ["PERCENTRANK(I1:I10,5)", 0.583],
    ["PERCENTRANK.EXC(J1:J9,7)", 0.7],
    ["PERCENTRANK.EXC(J1:J9,5.43)", 0.381],
    ["PERCENTRANK.EXC(J1:J9,5.43,1)", 0.3],
    ["INDEX(FREQUENCY(L1:L9,M1:M3),1)", 1],
    ["INDEX(FREQUENCY(L1:L9,M1:M3),2)", 2],
    ["INDEX(FREQUENCY(L1:L9,M1:M3),3)", 4],
    ["INDEX(FREQUENCY(L1:L9,M1:M3),4)", 2],
    ["PROB(N1:N4,O1:O4,2)", 0.1],
    ["PROB(N1:N4,O1:O4,1,3)", 0.8],
  ])("=%s is %s", (f, e) => near(R(f), e));
});

describe("correlation and regression: Microsoft's examples", () => {
  it.each<[string, number | string]>([
    ["CORREL({3,2,4,5,6},{9,7,12,15,17})", 0.997054486],
    ["PEARSON({9,7,5,3,1},{10,6,1,5,3})", 0.699379],
    ["RSQ({2,3,9,1,8,7,5},{6,5,11,7,5,4,4})", 0.05795],
    ["SLOPE({2,3,9,1,8,7,5},{6,5,11,7,5,4,4})", 0.305556],
    ["INTERCEPT({2,3,9,1,8},{6,5,11,7,5})", 0.0483871],
    ["STEYX({2,3,9,1,8,7,5},{6,5,11,7,5,4,4})", 3.305719],
    ["FORECAST(30,{6,7,9,15,21},{20,28,31,38,40})", 10.607253],
    ["FORECAST.LINEAR(30,{6,7,9,15,21},{20,28,31,38,40})", 10.607253],
    ["COVAR({3,2,4,5,6},{9,7,12,15,17})", 5.2],
    ["COVARIANCE.P({3,2,4,5,6},{9,7,12,15,17})", 5.2],
    ["COVARIANCE.S({2,4,8},{5,11,12})", 9.666666667],
    ["FISHER(0.75)", 0.972955],
    ["FISHERINV(0.972955)", 0.75],
    ["INDEX(LINEST({1,9,5,7},{0,4,2,3}),1)", 2],
    ["INDEX(LINEST({1,9,5,7},{0,4,2,3}),2)", 1],
    ["INDEX(LOGEST(Reg!G1:G6,Reg!F1:F6,TRUE,FALSE),1)", 1.463275628],
    ["INDEX(LOGEST(Reg!G1:G6,Reg!F1:F6,TRUE,FALSE),2)", 495.3047702],
    ["INDEX(TREND(Reg!I1:I12,Reg!H1:H12),1)", 133953.3333],
    ["INDEX(TREND(Reg!I1:I12,Reg!H1:H12,Reg!J1:J5),1)", 146171.5152],
    ["INDEX(TREND(Reg!I1:I12,Reg!H1:H12,Reg!J1:J5),5)", 150244.2424],
    ["INDEX(GROWTH(Reg!G1:G6,Reg!F1:F6),1)", 32618.20377],
    ["INDEX(GROWTH(Reg!G1:G6,Reg!F1:F6),6)", 218821.8762],
    ["INDEX(GROWTH(Reg!G1:G6,Reg!F1:F6,{17;18}),1)", 320196.7184],
  ])("=%s is %s", (f, e) => near(R(f), e));

  it("LINEST's multiple regression with statistics (the office-building example)", () => {
    const at = (r: number, c: number) => R(`INDEX(LINEST(Reg!E1:E11,Reg!A1:D11,TRUE,TRUE),${r},${c})`);
    const expected: [number, number, number][] = [
      [1, 1, -234.2371645],
      [1, 2, 2553.21066],
      [1, 3, 12529.76817],
      [1, 4, 27.64138737],
      [1, 5, 52317.83051],
      [2, 1, 13.26801148],
      [2, 2, 530.6691519],
      [2, 3, 400.0668382],
      [2, 4, 5.429374042],
      [2, 5, 12237.3616],
      [3, 1, 0.996747993],
      [3, 2, 970.5784629],
      [4, 1, 459.7536742],
      [4, 2, 6],
      [5, 1, 1732393319.229],
      [5, 2, 5652135.316],
    ];
    for (const [r, c, v] of expected) near(at(r, c), v);
    near(at(3, 3), "#N/A");
  });
});

describe("Excel's rules for arguments and errors", () => {
  it.each<[string, number | string]>([
    ["VAR(1)", "#DIV/0!"],
    ["VAR.P(Q3)", "#DIV/0!"],
    ['VAR(1,2,"3")', 1],
    ['VAR(1,2,"x")', "#VALUE!"],
    ["VAR(Q1:Q5)", 8],
    ["VARA(Q1:Q5)", 4.916666667],
    ["MAXA(Q1:Q5)", 5],
    ["MINA(Q1:Q5)", 0],
    ["MAXA(Q4)", 0],
    ["AVERAGEA(Q4)", "#DIV/0!"],
    ["AVEDEV(Q2)", "#NUM!"],
    ["DEVSQ(Q2)", "#NUM!"],
    ["GEOMEAN(1,0)", "#NUM!"],
    ["HARMEAN(-1,2)", "#NUM!"],
    ["TRIMMEAN(E1:E11,1)", "#NUM!"],
    ["KURT(1,2,3)", "#DIV/0!"],
    ["SKEW(1,1,1)", "#DIV/0!"],
    ["STANDARDIZE(1,1,0)", "#NUM!"],
    ["MODE(1,2,3)", "#N/A"],
    ["MODE(1/0,1)", "#DIV/0!"],
    ['MODE("1",1,1/0,2,3)', "#VALUE!"],
    ["MODE(1,2,2,TRUE)", "#VALUE!"],
    ["RANK(99,H1:H5)", "#N/A"],
    ["PERCENTILE(Q2,0.5)", "#NUM!"],
    ["PERCENTILE(J1:J9,1.1)", "#NUM!"],
    ["QUARTILE(J1:J9,5)", "#NUM!"],
    ["QUARTILE(J1:J9,4)", 9],
    ["PERCENTRANK(J1:J9,100)", "#N/A"],
    ["PERCENTRANK(J1:J9,5,0)", "#NUM!"],
    ["PROB({1,2},{0.5,0.4},1)", "#NUM!"],
    ["PROB({1,2},{0.5},1)", "#N/A"],
    ["CORREL({1,2,3},{1,2})", "#N/A"],
    ["CORREL({1,1,1},{1,2,3})", "#DIV/0!"],
    ["CORREL(Q1:Q5,{1,2,3,4,6})", 1],
    ["SLOPE({1},{1})", "#DIV/0!"],
    ["STEYX({1,2},{1,2})", "#DIV/0!"],
    ["COVARIANCE.S({1},{1})", "#DIV/0!"],
    ["FISHER(1)", "#NUM!"],
    ['LINEST({1,"a",3})', "#VALUE!"],
    ["LINEST({1,2,3},{1,2})", "#REF!"],
    ["LOGEST({1,0,3})", "#NUM!"],
    ["INDEX(LINEST({2,4,6},{1,2,3},FALSE),1)", 2],
    ["INDEX(LINEST({2,4,6},{1,2,3},FALSE),2)", 0],
  ])("=%s is %s", (f, e) => near(R(f), e));

  it("MODE.MULT lists every mode in order of first appearance", () => {
    expect(R("ROWS(MODE.MULT({1,2,2,1,3}))")).toBe(2);
    expect(R("INDEX(MODE.MULT({2,1,1,2,3}),1)")).toBe(2);
  });

  it("drops a collinear predictor as Excel does (coefficient 0)", () => {
    near(R("INDEX(LINEST({3;5;7;9},{1,2;2,4;3,6;4,8}),1)"), 0);
    near(R("INDEX(LINEST({3;5;7;9},{1,2;2,4;3,6;4,8}),2)"), 2);
    near(R("INDEX(LINEST({3;5;7;9},{1,2;2,4;3,6;4,8}),3)"), 1);
  });
});

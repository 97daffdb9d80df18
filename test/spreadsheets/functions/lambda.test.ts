// LET, LAMBDA and the functions that call one: Microsoft's examples, closures, omitted arguments,
// recursion's bound, and a LAMBDA that is not called (#CALC!).
import { describe, expect, it } from "vitest";
import { result, workbook } from "./results.ts";

const wb = workbook([
  [1, 2, 3],
  [4, 5, 6],
  ["a", "b", "c"],
  ["d", "e", "f"],
]);

describe("LET and LAMBDA", () => {
  it.each([
    ["=LET(x,1,x+1)", 2],
    ["=LET(x,5,y,x*2,x+y)", 15],
    ["=LET(total,SUM(A1:C2),count,COUNT(A1:C2),total/count)", 3.5],
    ["=LET(r,A1:C1,SUM(r)*ROWS(r))", 6],
    ["=LAMBDA(x,x+1)(1)", 2],
    ["=LAMBDA(x,y,x*y)(6,7)", 42],
    ['=LAMBDA(x,y,IF(ISOMITTED(y),"Missing second argument",x+y))(1,)', "Missing second argument"],
    ['=LAMBDA(x,y,IF(ISOMITTED(y),"Missing second argument",x+y))(1,2)', 3],
    ["=LET(f,LAMBDA(x,x*x),f(4)+f(3))", 25],
    ["=LET(k,10,add,LAMBDA(x,x+k),add(5))", 15],
    ["=LET(twice,LAMBDA(f,x,f(f(x))),twice(LAMBDA(n,n*3),2))", 18],
    ["=LAMBDA(x,x)", { error: "#CALC!" }],
    ["=LAMBDA(x,x)(1,2)", { error: "#VALUE!" }],
    ["=SUM(LAMBDA(x,x))", { error: "#CALC!" }],
    ["=LET(f,LAMBDA(x,x),f+1)", { error: "#CALC!" }],
    ["=ISOMITTED(1)", false],
  ])("%s is %j", (formula, expected) => expect(result(wb, formula)).toEqual(expected));
});

describe("MAP, REDUCE, SCAN, BYROW, BYCOL, MAKEARRAY", () => {
  it.each([
    [
      "=MAP(A1:C2,LAMBDA(a,IF(a>4,a*a,a)))",
      [
        [1, 2, 3],
        [4, 25, 36],
      ],
    ],
    ["=MAP(A1:C1,A2:C2,LAMBDA(a,b,a*b))", [[4, 10, 18]]],
    ["=MAP({1,2},LAMBDA(a,{1,2}))", [[{ error: "#CALC!" }, { error: "#CALC!" }]]],
    ["=REDUCE(,A1:C2,LAMBDA(a,b,IF(b>4,a+b^2,a)))", 61],
    ["=REDUCE(1,A1:C2,LAMBDA(a,b,a*b))", 720],
    ['=REDUCE("",A3:C4,LAMBDA(a,b,a&b))', "abcdef"],
    [
      "=SCAN(1,A1:C2,LAMBDA(a,b,a*b))",
      [
        [1, 2, 6],
        [24, 120, 720],
      ],
    ],
    [
      '=SCAN("",A3:C4,LAMBDA(a,b,a&b))',
      [
        ["a", "ab", "abc"],
        ["abcd", "abcde", "abcdef"],
      ],
    ],
    ["=BYROW(A1:C2,LAMBDA(array,MAX(array)))", [[3], [6]]],
    ["=BYCOL(A1:C2,LAMBDA(array,MAX(array)))", [[4, 5, 6]]],
    ["=BYROW(A1:C2,LAMBDA(r,r))", [[{ error: "#CALC!" }], [{ error: "#CALC!" }]]],
    [
      "=MAKEARRAY(3,3,LAMBDA(r,c,r*c))",
      [
        [1, 2, 3],
        [2, 4, 6],
        [3, 6, 9],
      ],
    ],
    ["=MAKEARRAY(0,3,LAMBDA(r,c,r))", { error: "#VALUE!" }],
    ["=MAP(A1:B1,5)", { error: "#VALUE!" }],
  ])("%s is %j", (formula, expected) => expect(result(wb, formula)).toEqual(expected));
});

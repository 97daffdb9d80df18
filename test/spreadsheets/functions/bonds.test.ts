// The coupon calendar, bond and security functions on Microsoft's documented examples, with the
// #NUM! cases (settlement not before maturity, a frequency other than 1, 2, 4, a basis outside 0–4).
import { describe, it } from "vitest";
import { near, sheet } from "./book.ts";

const F = (
  (R) => (f: string) =>
    R(`=${f}`)
)(sheet([[1]]));
const S = "DATE(2011,1,25)";
const M = "DATE(2011,11,15)";

describe("coupon calendar", () => {
  it.each<[string, number | string]>([
    [`COUPDAYBS(${S},${M},2,1)`, 71],
    [`COUPDAYS(${S},${M},2,1)`, 181],
    [`COUPDAYSNC(${S},${M},2,1)`, 110],
    [`COUPNCD(${S},${M},2,1)`, 40678],
    [`COUPNUM(DATE(2007,1,25),${M},2,1)`, 10],
    [`COUPNUM(${S},${M},2,1)`, 2],
    [`COUPPCD(${S},${M},2,1)`, 40497],
    [`COUPDAYS(${S},${M},2,0)`, 180],
    [`COUPDAYBS(${S},${M},2,0)`, 70],
    [`COUPDAYSNC(${S},${M},2,0)`, 110],
    [`COUPDAYS(${S},${M},4,3)`, 91.25],
    [`COUPNCD(DATE(2011,1,25),DATE(2011,11,30),2,0)`, 40694],
    [`COUPNUM(${M},${S},2,1)`, "#NUM!"],
    [`COUPNUM(${S},${M},3,1)`, "#NUM!"],
    [`COUPNUM(${S},${M},2,5)`, "#NUM!"],
  ])("=%s is %s", (f, e) => near(F(f), e));
});

describe("bonds", () => {
  it.each<[string, number | string]>([
    ["PRICE(DATE(2008,2,15),DATE(2017,11,15),0.0575,0.065,100,2,0)", 94.63436],
    ["YIELD(DATE(2008,2,15),DATE(2016,11,15),0.0575,95.04287,100,2,0)", 0.065],
    ["DURATION(DATE(2018,7,1),DATE(2048,1,1),0.08,0.09,2,1)", 10.9191453],
    ["MDURATION(DATE(2008,1,1),DATE(2016,1,1),0.08,0.09,2,1)", 5.73567],
    ["PRICE(DATE(2008,2,15),DATE(2017,11,15),-0.0575,0.065,100,2,0)", "#NUM!"],
  ])("=%s is %s", (f, e) => near(F(f), e));
});

describe("securities and Treasury bills", () => {
  it.each<[string, number | string]>([
    ["ACCRINT(DATE(2008,3,1),DATE(2008,8,31),DATE(2008,5,1),0.1,1000,2,0)", 16.666667],
    ["ACCRINTM(DATE(2008,4,1),DATE(2008,6,15),0.1,1000,3)", 20.54794521],
    ["DISC(DATE(2018,7,1),DATE(2048,1,1),97.975,100,1)", 0.000686],
    ["INTRATE(DATE(2008,2,15),DATE(2008,5,15),1000000,1014420,2)", 0.05768],
    ["RECEIVED(DATE(2008,2,15),DATE(2008,5,15),1000000,0.0575,2)", 1014584.654],
    ["PRICEDISC(DATE(2008,2,16),DATE(2008,3,1),0.0525,100,2)", 99.79583333],
    ["YIELDDISC(DATE(2008,2,16),DATE(2008,3,1),99.795,100,2)", 0.052823],
    ["PRICEMAT(DATE(2008,2,15),DATE(2008,4,13),DATE(2007,11,11),0.061,0.061,0)", 99.98449888],
    ["YIELDMAT(DATE(2008,3,15),DATE(2008,11,3),DATE(2007,11,8),0.0625,100.0123,0)", 0.060954],
    ["TBILLPRICE(DATE(2008,3,31),DATE(2008,6,1),0.09)", 98.45],
    ["TBILLYIELD(DATE(2008,3,31),DATE(2008,6,1),98.45)", 0.091417],
    ["TBILLEQ(DATE(2008,3,31),DATE(2008,6,1),0.0914)", 0.094151],
    ["TBILLEQ(DATE(2008,3,31),DATE(2009,6,1),0.0914)", "#NUM!"],
    ["DISC(DATE(2048,1,1),DATE(2018,7,1),97.975,100,1)", "#NUM!"],
  ])("=%s is %s", (f, e) => near(F(f), e));
});

// Distributions and hypothesis tests: Microsoft's documented examples (to the digits its pages
// show), inverses checked against their CDFs to full precision, and the #NUM!/#VALUE! rules.
import { describe, expect, it } from "vitest";
import { near, sheet } from "./book.ts";

const ev = sheet([
  [3, 3, 6, 58, 35, 45.35, 47.65, 6, 20],
  [6, 4, 19, 11, 25, 17.56, 18.44, 7, 28],
  [7, 5, 3, 10, 23, 16.09, 16.91, 9, 31],
  [8, 8, 2, null, null, null, null, 15, 38],
  [6, 9, 14, null, null, null, null, 21, 40],
  [5, 1, 4],
  [4, 2, 5],
  [2, 4, 17],
  [1, 5, 1],
  [9],
]);
const R = (f: string) => ev(`=${f}`);

describe("continuous distributions: Microsoft's examples", () => {
  it.each<[string, number | string]>([
    ["NORM.DIST(42,40,1.5,TRUE)", 0.9087888],
    ["NORM.DIST(42,40,1.5,FALSE)", 0.10934],
    ["NORMDIST(42,40,1.5,TRUE)", 0.9087888],
    ["NORM.INV(0.908789,40,1.5)", 42.000002],
    ["NORMINV(0.908789,40,1.5)", 42.000002],
    ["NORM.S.DIST(1.333333,TRUE)", 0.908788726],
    ["NORM.S.DIST(1.333333,FALSE)", 0.164010148],
    ["NORMSDIST(1.333333)", 0.908788726],
    ["NORM.S.INV(0.908789)", 1.3333347],
    ["NORMSINV(0.908789)", 1.3333347],
    ["PHI(0.75)", 0.301137432],
    ["GAUSS(2)", 0.47725],
    ["LOGNORM.DIST(4,3.5,1.2,TRUE)", 0.0390836],
    ["LOGNORM.DIST(4,3.5,1.2,FALSE)", 0.0176176],
    ["LOGNORMDIST(4,3.5,1.2)", 0.0390836],
    ["LOGNORM.INV(0.039084,3.5,1.2)", 4.0000252],
    ["LOGINV(0.039084,3.5,1.2)", 4.0000252],
    ["T.DIST(60,1,TRUE)", 0.99469533],
    ["T.DIST(8,3,FALSE)", 0.00073691],
    ["T.DIST.2T(1.959999998,60)", 0.054645],
    ["T.DIST.RT(1.959999998,60)", 0.027322],
    ["TDIST(1.959999998,60,1)", 0.027322],
    ["TDIST(1.959999998,60,2)", 0.054645],
    ["T.INV(0.75,2)", 0.8164966],
    ["T.INV.2T(0.546449,60)", 0.606533],
    ["TINV(0.546449,60)", 0.606533],
    ["CHISQ.DIST(0.5,1,TRUE)", 0.52049988],
    ["CHISQ.DIST(2,3,FALSE)", 0.20755375],
    ["CHISQ.DIST.RT(18.307,10)", 0.0500006],
    ["CHIDIST(18.307,10)", 0.050000589],
    ["CHISQ.INV(0.93,1)", 3.283020287],
    ["CHISQ.INV(0.6,2)", 1.832581464],
    ["CHISQ.INV.RT(0.050001,10)", 18.306973],
    ["CHIINV(0.050001,10)", 18.306973],
    ["F.DIST(15.2069,6,4,TRUE)", 0.99],
    ["F.DIST(15.2069,6,4,FALSE)", 0.0012238],
    ["F.DIST.RT(15.20686486,6,4)", 0.01],
    ["FDIST(15.20686486,6,4)", 0.01],
    ["F.INV(0.01,6,4)", 0.109309914],
    ["F.INV.RT(0.01,6,4)", 15.20686],
    ["FINV(0.01,6,4)", 15.20686],
    ["BETA.DIST(2,8,10,TRUE,1,3)", 0.6854706],
    ["BETA.DIST(2,8,10,FALSE,1,3)", 1.4837646],
    ["BETADIST(2,8,10,1,3)", 0.6854706],
    ["ROUND(BETA.INV(0.685470581,8,10,1,3),9)", 2],
    ["ROUND(BETAINV(0.685470581,8,10,1,3),9)", 2],
    ["GAMMA.DIST(10.00001131,9,2,FALSE)", 0.032639],
    ["GAMMA.DIST(10.00001131,9,2,TRUE)", 0.068094],
    ["GAMMADIST(10.00001131,9,2,TRUE)", 0.068094],
    ["GAMMA.INV(0.068094,9,2)", 10.0000112],
    ["GAMMAINV(0.068094,9,2)", 10.0000112],
    ["GAMMA(2.5)", 1.329340388],
    ["GAMMA(-3.75)", 0.267866129],
    ["GAMMA(0)", "#NUM!"],
    ["GAMMA(-2)", "#NUM!"],
    ["GAMMALN(4)", 1.791759469],
    ["GAMMALN.PRECISE(4)", 1.791759469],
    ["EXPON.DIST(0.2,10,TRUE)", 0.86466472],
    ["EXPON.DIST(0.2,10,FALSE)", 1.35335283],
    ["EXPONDIST(0.2,10,TRUE)", 0.86466472],
    ["WEIBULL.DIST(105,20,100,TRUE)", 0.929581],
    ["WEIBULL.DIST(105,20,100,FALSE)", 0.035589],
    ["WEIBULL(105,20,100,TRUE)", 0.929581],
  ])("=%s is %s", (f, e) => near(R(f), e));
});

describe("discrete distributions and intervals: Microsoft's examples", () => {
  it.each<[string, number | string]>([
    ["BINOM.DIST(6,10,0.5,FALSE)", 0.2050781],
    ["BINOMDIST(6,10,0.5,FALSE)", 0.2050781],
    ["BINOM.DIST(6,10,0.5,TRUE)", 0.828125],
    ["BINOM.DIST.RANGE(60,0.75,48)", 0.084],
    ["BINOM.DIST.RANGE(60,0.75,45,50)", 0.524],
    ["BINOM.INV(6,0.5,0.75)", 4],
    ["CRITBINOM(6,0.5,0.75)", 4],
    ["NEGBINOM.DIST(10,5,0.25,TRUE)", 0.3135141],
    ["NEGBINOM.DIST(10,5,0.25,FALSE)", 0.0550487],
    ["NEGBINOMDIST(10,5,0.25)", 0.0550487],
    ["HYPGEOM.DIST(1,4,8,20,TRUE)", 0.4654],
    ["HYPGEOM.DIST(1,4,8,20,FALSE)", 0.3633],
    ["HYPGEOMDIST(1,4,8,20)", 0.3633],
    ["POISSON.DIST(2,5,TRUE)", 0.124652],
    ["POISSON.DIST(2,5,FALSE)", 0.084224],
    ["POISSON(2,5,TRUE)", 0.124652],
    ["CONFIDENCE.NORM(0.05,2.5,50)", 0.692952],
    ["CONFIDENCE(0.05,2.5,50)", 0.692952],
    ["CONFIDENCE.T(0.05,1,50)", 0.284196855],
  ])("=%s is %s", (f, e) => near(R(f), e));
});

describe("hypothesis tests: Microsoft's examples", () => {
  it.each<[string, number | string]>([
    ["Z.TEST(A1:A10,4)", 0.090574],
    ["2*MIN(Z.TEST(A1:A10,4),1-Z.TEST(A1:A10,4))", 0.181148],
    ["Z.TEST(A1:A10,6)", 0.863043],
    ["ZTEST(A1:A10,6)", 0.863043],
    ["T.TEST(B1:B9,C1:C9,2,1)", 0.196016],
    ["TTEST(B1:B9,C1:C9,2,1)", 0.196016],
    ["F.TEST(H1:H5,I1:I5)", 0.64831785],
    ["FTEST(H1:H5,I1:I5)", 0.64831785],
    ["CHISQ.TEST(D1:E3,F1:G3)", 0.0003082],
    ["CHITEST(D1:E3,F1:G3)", 0.0003082],
  ])("=%s is %s", (f, e) => near(R(f), e));
});

describe("inverses to full precision", () => {
  it.each([
    ["NORM.S.DIST(NORM.S.INV(1E-300),TRUE)", 1e-300],
    ["NORM.S.DIST(NORM.S.INV(0.975),TRUE)", 0.975],
    ["T.DIST(T.INV(0.01,7),7,TRUE)", 0.01],
    ["CHISQ.DIST(CHISQ.INV(1E-12,3),3,TRUE)", 1e-12],
    ["CHISQ.DIST.RT(CHISQ.INV.RT(1E-12,3),3)", 1e-12],
    ["F.DIST.RT(F.INV.RT(0.001,3,12),3,12)", 0.001],
    ["GAMMA.DIST(GAMMA.INV(0.3,0.5,3),0.5,3,TRUE)", 0.3],
    ["BETA.DIST(BETA.INV(0.2,0.5,0.5),0.5,0.5,TRUE)", 0.2],
  ])("=%s comes back to %s", (f, p) => {
    const got = R(f) as number;
    expect(Math.abs(got - p) / p).toBeLessThan(1e-12);
  });

  it("matches Excel's 15 digits where the exact answer is known", () => {
    expect(R("NORM.S.INV(0.975)")).toBeCloseTo(1.959963984540054, 14);
    expect(R("T.INV(0.75,2)")).toBeCloseTo(0.816496580927726, 14);
    expect(R("CHISQ.INV(0.93,1)")).toBeCloseTo(3.283020286759539, 12);
  });
});

describe("Excel's domain rules", () => {
  it.each<[string, number | string]>([
    ["NORM.DIST(1,0,0,TRUE)", "#NUM!"],
    ["NORM.INV(0,0,1)", "#NUM!"],
    ["NORM.INV(1,0,1)", "#NUM!"],
    ['NORM.DIST("x",0,1,TRUE)', "#VALUE!"],
    ["NORM.S.INV(-0.1)", "#NUM!"],
    ["LOGNORM.DIST(0,1,1,TRUE)", "#NUM!"],
    ["T.DIST(1,0,TRUE)", "#NUM!"],
    ["T.DIST.2T(-1,2)", "#NUM!"],
    ["TDIST(1,2,3)", "#NUM!"],
    ["T.INV(0,2)", "#NUM!"],
    ["T.INV.2T(1.5,2)", "#NUM!"],
    ["T.DIST(1,2.9,TRUE)", 0.788675135],
    ["CHISQ.DIST(-1,2,TRUE)", "#NUM!"],
    ["CHISQ.INV(1,2)", "#NUM!"],
    ["CHISQ.INV.RT(0,2)", "#NUM!"],
    ["F.DIST(1,0,2,TRUE)", "#NUM!"],
    ["F.INV(1,2,2)", "#NUM!"],
    ["BETA.DIST(4,8,10,TRUE,1,3)", "#NUM!"],
    ["BETA.DIST(0.5,0,1,TRUE)", "#NUM!"],
    ["BETA.INV(0,8,10)", "#NUM!"],
    ["GAMMA.DIST(-1,1,1,TRUE)", "#NUM!"],
    ["GAMMA.INV(1,1,1)", "#NUM!"],
    ["GAMMALN(0)", "#NUM!"],
    ["EXPON.DIST(1,0,TRUE)", "#NUM!"],
    ["WEIBULL.DIST(-1,1,1,TRUE)", "#NUM!"],
    ["BINOM.DIST(11,10,0.5,TRUE)", "#NUM!"],
    ["BINOM.DIST(1,10,1.5,TRUE)", "#NUM!"],
    ["BINOM.DIST(6.9,10.2,0.5,FALSE)", 0.2050781],
    ["BINOM.DIST.RANGE(60,0.75,50,45)", "#NUM!"],
    ["BINOM.INV(6,0.5,1.5)", "#NUM!"],
    ["NEGBINOM.DIST(1,0,0.5,TRUE)", "#NUM!"],
    ["HYPGEOM.DIST(5,4,8,20,TRUE)", "#NUM!"],
    ["HYPGEOM.DIST(1,4,8,2,TRUE)", "#NUM!"],
    ["POISSON.DIST(-1,5,TRUE)", "#NUM!"],
    ["POISSON.DIST(0,0,FALSE)", 1],
    ["CONFIDENCE.NORM(0,1,10)", "#NUM!"],
    ["CONFIDENCE.T(0.05,1,1)", "#DIV/0!"],
    ["Z.TEST(J1:J3,1)", "#N/A"],
    ["T.TEST(B1:B9,C1:C9,3,1)", "#NUM!"],
    ["T.TEST(B1:B9,C1:C8,2,1)", "#N/A"],
    ["T.TEST(B1:B9,C1:C9,2,2)", 0.191995887],
    ["T.TEST(B1:B9,C1:C9,1,3)", 0.101147],
    ["F.TEST({1},{1,2})", "#DIV/0!"],
    ["CHISQ.TEST(D1:E3,F1:F3)", "#N/A"],
  ])("=%s is %s", (f, e) => near(R(f), e));
});

// Types for `bessel` (SheetJS, Apache-2.0), which ships none: each takes x and the order n.
declare module "bessel" {
  type Bessel = (x: number, n: number) => number;
  const bessel: { besseli: Bessel; besselj: Bessel; besselk: Bessel; bessely: Bessel };
  export default bessel;
}

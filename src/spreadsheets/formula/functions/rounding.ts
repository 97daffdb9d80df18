// Rounding as Excel does it: on the decimal digits a person sees (the value first rounded to 15
// significant digits, then shifted by powers of ten through its decimal text), so ROUND(2.675, 2)
// is 2.68 and ROUND(1.005, 2) is 1.01, where binary arithmetic alone gives 2.67 and 1.

/** n × 10^digits without binary error, through the exponent of its decimal text. */
function shift(n: number, digits: number): number {
  const text = String(n);
  if (text.includes("e")) return n * Math.pow(10, digits);
  return Number(`${text}e${digits}`);
}

export type RoundMode = "half" | "up" | "down";

export function roundDigits(x: number, digits: number, mode: RoundMode): number {
  const d = Math.trunc(digits);
  if (x === 0 || !Number.isFinite(x)) return x;
  if (d > 15) return x;
  const sign = x < 0 ? -1 : 1;
  const a = Number(Math.abs(x).toPrecision(15));
  const shifted = shift(a, d);
  if (!Number.isFinite(shifted)) return x;
  const whole = mode === "half" ? Math.floor(shifted + 0.5) : mode === "up" ? Math.ceil(shifted) : Math.floor(shifted);
  return sign * shift(whole, -d) || 0;
}

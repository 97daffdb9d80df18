// A number as the writers put it in text (.xlsx <v>, CSV, markdown): the shortest text that reads
// back as the same double, exponent as Excel writes it ("1E+21", "5E-324"), -0 as "0". Excel
// shows 15 significant digits but writes (and reads) up to 17 when a value needs them: writing
// 1/3 with 15 would make =A1*3 give 0.999999999999999 instead of 1.

/** The number's text, or undefined for NaN and ±Infinity, which no cell holds (a writer shows #NUM! instead). */
export function numberText(n: number): string | undefined {
  if (!Number.isFinite(n)) return undefined;
  const text = String(n);
  return text.includes("e") ? text.replace("e", "E") : text;
}

// Fraction formats ("# ?/?", "0 00/000", "?/8") as Excel lays them out, including the parts numfmt
// gets wrong: literals before a fraction without a whole part, a zero fraction (blank with "?",
// dropped with "#", "0/1" with a "0" numerator), the separator of a zero whole part. A format is
// taken only when it is one section of placeholders, literals and one "/" (no dates, decimals,
// percent or text); anything else is left to numfmt (null).

type Token = { p: string } | { lit: string };

const isP = (t: Token | undefined): t is { p: string } => t !== undefined && "p" in t;

/** The section's tokens split at its "/", or null when it is not a plain fraction format. */
function tokenize(fmt: string): { before: Token[]; after: Token[]; fixed: number | null } | null {
  const before: Token[] = [];
  const after: Token[] = [];
  let fixed = "";
  let slash = false;
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i] as string;
    const out = slash ? after : before;
    if (ch === '"') {
      const end = fmt.indexOf('"', i + 1);
      if (end < 0) return null;
      out.push({ lit: fmt.slice(i + 1, end) });
      i = end;
    } else if (ch === "\\" || ch === "_") {
      if (i + 1 >= fmt.length) return null;
      out.push({ lit: ch === "_" ? " " : (fmt[i + 1] as string) });
      i++;
    } else if (ch === "/") {
      if (slash) return null;
      slash = true;
    } else if (slash && /[1-9]/.test(ch) && !after.some(isP) && fixed === "") {
      while (i < fmt.length && /\d/.test(fmt[i] as string)) fixed += fmt[i++];
      i--;
    } else if (ch === "#" || ch === "0" || ch === "?") {
      if (slash && fixed !== "") return null;
      out.push({ p: ch });
    } else if (/[A-Za-z%.,@;[*\d]/.test(ch)) return null;
    else out.push({ lit: ch });
  }
  if (!slash) return null;
  return { before, after, fixed: fixed === "" ? null : Number(fixed) };
}

/** Digits into placeholders from the right (extra digits into the first); empty ones: "0" 0, "?" space, "#" nothing. */
function fill(tokens: Token[], digits: string): string {
  const places = tokens.filter(isP).length;
  let k = 0;
  let out = "";
  for (const t of tokens) {
    if (!isP(t)) {
      out += t.lit;
      continue;
    }
    const index = digits.length - (places - k);
    if (k === 0 && index > 0) out += digits.slice(0, index + 1);
    else if (index >= 0) out += digits[index];
    else out += t.p === "0" ? "0" : t.p === "?" ? " " : "";
    k++;
  }
  return out;
}

/** The denominator: left-aligned (padded after by "?" and "0"), or zero-padded when all its placeholders are "0". */
function denominator(tokens: { p: string }[], d: number): string {
  const digits = String(d);
  if (tokens.every((t) => t.p === "0")) return digits.padStart(tokens.length, "0");
  let out = digits;
  for (const t of tokens.slice(digits.length)) out += t.p === "0" ? "0" : t.p === "?" ? " " : "";
  return out;
}

/** The closest n/d to x with d at most `most` (continued fractions). */
function approximate(x: number, most: number): [number, number] {
  let [h0, h1, k0, k1] = [0, 1, 1, 0];
  let y = x;
  for (let step = 0; step < 64; step++) {
    const a = Math.floor(y);
    const [h2, k2] = [a * h1 + h0, a * k1 + k0];
    if (k2 > most) break;
    [h0, h1, k0, k1] = [h1, h2, k1, k2];
    if (Math.abs(y - a) < 1e-12) break;
    y = 1 / (y - a);
  }
  // The best of the last convergent and the semiconvergent under the bound.
  const t = Math.floor((most - k0) / k1);
  const [hs, ks] = [h0 + t * h1, k0 + t * k1];
  const best = ks > 0 && Math.abs(x - hs / ks) < Math.abs(x - h1 / k1) ? [hs, ks] : [h1, k1];
  return best as [number, number];
}

interface Parts {
  prefix: string;
  whole: Token[] | null;
  sep: string;
  num: { p: string }[];
  slash: string;
  den: { p: string }[];
  suffix: string;
}

function partsOf(before: Token[], after: Token[]): Parts | null {
  const firstP = before.findIndex(isP);
  let lastP = before.length - 1;
  while (lastP >= 0 && !isP(before[lastP])) lastP--;
  if (firstP < 0) return null;
  let numStart = lastP;
  while (numStart > 0 && isP(before[numStart - 1])) numStart--;
  let wholeEnd = numStart - 1;
  while (wholeEnd >= firstP && !isP(before[wholeEnd])) wholeEnd--;
  const lits = (ts: Token[]) => ts.map((t) => ("lit" in t ? t.lit : "")).join("");
  const denEnd = after.findIndex((t, i) => isP(t) && !isP(after[i + 1]));
  const denStart = after.findIndex(isP);
  if (after.slice(denEnd + 1).some(isP)) return null;
  return {
    prefix: lits(before.slice(0, firstP)),
    whole: wholeEnd >= firstP ? before.slice(firstP, wholeEnd + 1) : null,
    sep: wholeEnd >= firstP ? lits(before.slice(wholeEnd + 1, numStart)) : "",
    num: before.slice(numStart, lastP + 1) as { p: string }[],
    slash: `${lits(before.slice(lastP + 1))}/${lits(denStart < 0 ? after : after.slice(0, denStart))}`,
    den: denStart < 0 ? [] : (after.slice(denStart, denEnd + 1) as { p: string }[]),
    suffix: denStart < 0 ? "" : lits(after.slice(denEnd + 1)),
  };
}

/** The number in a plain fraction format, or null when the format is not one (numfmt then formats it). */
export function fractionText(value: number, fmt: string): string | null {
  const tokens = tokenize(fmt);
  if (!tokens) return null;
  const parts = partsOf(tokens.before, tokens.after);
  if (!parts || (parts.den.length === 0 && tokens.fixed === null)) return null;
  const { prefix, whole, sep, num, slash, den, suffix } = parts;
  const x = Math.abs(value);
  let i = whole ? Math.floor(x) : 0;
  const f = x - i;
  const [rounded, d] = tokens.fixed !== null ? [Math.round(f * tokens.fixed), tokens.fixed] : approximate(f, 10 ** den.length - 1);
  let n = rounded;
  if (whole && n === d) [i, n] = [i + 1, 0];
  const denText = tokens.fixed !== null ? String(d) : denominator(den, n === 0 ? 1 : d);
  const lastWhole = whole?.filter(isP).at(-1)?.p;
  const hasQ = [...(whole ?? []), ...num, ...den].some((t) => isP(t) && t.p === "?");
  let body: string;
  if (n !== 0) {
    const zeroSep = lastWhole === "0" ? sep : lastWhole === "?" || num.some((t) => t.p === "?") ? " ".repeat(sep.length) : "";
    body = (whole ? fill(whole, i > 0 ? String(i) : "") + (i > 0 ? sep : zeroSep) : "") + fill(num, String(n)) + slash + denText;
  } else if (!whole) body = fill(num, "0").padStart(1, "0") + slash + denText;
  else if (num.some((t) => t.p === "0")) {
    const head = i > 0 ? fill(whole, String(i)) + sep : lastWhole === "#" ? fill(whole, "") : fill(whole, "0") + sep;
    body = head + fill(num, "0") + slash + denText;
  } else {
    const rest = sep.length + num.length + slash.length + (tokens.fixed !== null ? String(tokens.fixed).length : den.length);
    body = fill(whole, String(i)) + (hasQ ? " ".repeat(rest) : "");
  }
  return `${value < 0 && (i > 0 || n > 0) ? "-" : ""}${prefix}${body}${suffix}`;
}

// Text direction as GitHub lays it out: every paragraph, heading, list item and cell is
// `dir="auto"`, so its first strong character (Unicode's bidi algorithm, rule P2) sets it. Word
// wants that said: a right-to-left paragraph is `w:bidi`, and right-to-left text in a run `w:rtl`.

/** Letters (strong in one direction or the other) and the two explicit marks, LRM and RLM (ALM too). */
const STRONG = /[\p{L}\u200E\u200F\u061C]/u;

/**
 * Code points whose bidi class is R or AL: Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan,
 * Mandaic and their presentation forms, and the right-to-left scripts of the supplementary planes.
 */
function rightToLeft(code: number): boolean {
  return (
    (code >= 0x0590 && code <= 0x08ff) ||
    code === 0x200f ||
    code === 0x061c ||
    (code >= 0xfb1d && code <= 0xfdff) ||
    (code >= 0xfe70 && code <= 0xfeff) ||
    (code >= 0x10800 && code <= 0x10fff) ||
    (code >= 0x1e800 && code <= 0x1efff)
  );
}

/**
 * Whether text is right-to-left by its first strong character; undefined when it has none
 * (digits, punctuation, emoji only). Most text starts with a Latin letter: answered at once.
 */
export function textDirection(text: string): "rtl" | "ltr" | undefined {
  // ASCII first: a letter decides, spaces, digits and punctuation are passed over.
  let i = 0;
  for (; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) break;
    if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) return "ltr";
  }
  if (i === text.length) return undefined;
  const match = STRONG.exec(i === 0 ? text : text.slice(i));
  if (!match) return undefined;
  return rightToLeft(match[0].codePointAt(0)!) ? "rtl" : "ltr";
}

export const isRightToLeft = (text: string): boolean => textDirection(text) === "rtl";

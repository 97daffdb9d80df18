// ST_Xstring (ECMA-376 Part 1, §22.9.2.19): a character XML cannot carry (a control character)
// is written as _xHHHH_, and an underscore that would read as such an escape as _x005F_.
const ESCAPE = /_x([0-9A-Fa-f]{4})_/g;

export const decodeXstring = (text: string): string =>
  text.includes("_x") ? text.replace(ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : text;

// Text and numbers as the .xlsx writer puts them in XML. Everything a caller wrote is escaped here;
// characters XML 1.0 cannot carry (C0 controls other than tab, LF and CR; U+FFFE, U+FFFF; lone
// surrogates) are dropped, since a file containing one does not open: a cell "a\u0007b" is written
// as "ab". Only the .xlsx loses them: the model keeps the text as given, and JSON and CSV reads
// give it whole. (Excel's own "_x0007_" form would keep them, but a control character in a cell
// is noise far more often than data.)

const NOT_XML_SOURCE =
  "[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\ufffe\\uffff]|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]";
const NOT_XML = new RegExp(NOT_XML_SOURCE);
const NOT_XML_ALL = new RegExp(NOT_XML_SOURCE, "g");

/** Anything that needs a second look: markup characters, CR, a possible "_xHHHH_", forbidden characters, surrogates. */
const SUSPECT_SOURCE = '[&<>"\\r\\t\\n_\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\ud800-\\udfff\\ufffe\\uffff]';
const SUSPECT = new RegExp(SUSPECT_SOURCE);
// Excel and LibreOffice read "_x0041_" in a cell's text, a formula or a sheet name as "A"
// (ST_Xstring): a literal one is written with its underscore escaped, "_x005F_x0041_", as Excel
// itself does.
const XSTRING_ESCAPE = /_(?=x[0-9A-Fa-f]{4}_)/g;
// CR is a character reference: a parser reads a literal CR (or CRLF) in text as LF.
const TEXT_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;" };
// In an attribute a parser reads tab, LF and CR as spaces unless they are references.
const ATTR_ENTITIES: Record<string, string> = { ...TEXT_ENTITIES, '"': "&quot;", "\t": "&#9;", "\n": "&#10;" };

/** `text` without the characters XML 1.0 forbids. */
export const xmlLegal = (text: string): string => (NOT_XML.test(text) ? text.replace(NOT_XML_ALL, "") : text);

/** A cell's text (a string value, a formula) as element content. */
export function xmlText(text: string): string {
  if (!SUSPECT.test(text)) return text;
  let out = xmlLegal(text);
  if (out.includes("_x")) out = out.replace(XSTRING_ESCAPE, "_x005F_");
  return out.replace(/[&<>\r]/g, (c) => TEXT_ENTITIES[c]!);
}

/** Text as an attribute value (between double quotes): sheet names and format codes are read as "_xHHHH_" too. */
export function xmlAttr(text: string): string {
  if (!SUSPECT.test(text)) return text;
  let out = xmlLegal(text);
  if (out.includes("_x")) out = out.replace(XSTRING_ESCAPE, "_x005F_");
  return out.replace(/[&<>"\r\t\n]/g, (c) => ATTR_ENTITIES[c]!);
}

const isSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;

/** Whether a `<t>` holding `text` needs xml:space="preserve" (Excel trims leading and trailing white space without it). */
export function needsPreserve(text: string): boolean {
  return text.length > 0 && (isSpace(text.charCodeAt(0)) || isSpace(text.charCodeAt(text.length - 1)));
}

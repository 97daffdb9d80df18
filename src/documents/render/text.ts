// The text side of a rendered document. The renderer derives it from the same paragraphs it writes,
// following mammoth's raw-text rules (mammoth.extractRawText), so reads never re-parse the .docx:
//   - every paragraph (body, list item, table cell, code line) is its text followed by "\n\n";
//   - w:t text as written, w:tab → "\t", w:br → "" (mammoth gives a line break no text, so the
//     renderer writes a space before each hard break's w:br);
//   - hyperlinks give their text, images give nothing, tables give only their cells' paragraphs.

/**
 * The one normalisation applied to extracted text, to the renderer's text and to mammoth's alike:
 * the trailing newlines (the "\n\n" after the last paragraph, plus any empty paragraphs at the end)
 * are removed. Nothing else is touched.
 */
export function normalizeExtractedText(raw: string): string {
  let end = raw.length;
  while (end > 0 && raw.charCodeAt(end - 1) === 10) end--;
  return end === raw.length ? raw : raw.slice(0, end);
}

// XML 1.0 cannot carry C0 controls other than tab/LF/CR, U+FFFE/U+FFFF or lone surrogates; a
// document containing one would not open. They are replaced by U+FFFD, as markdown-it does for NUL.
const NOT_XML_SOURCE =
  "[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\ufffe\\uffff]|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]";
const NOT_XML = new RegExp(NOT_XML_SOURCE);
const NOT_XML_ALL = new RegExp(NOT_XML_SOURCE, "g");

/** Text that is safe inside w:t: XML-legal characters, no line endings (a line ending inside w:t is not a Word line break). */
export function runText(text: string): string {
  let out = NOT_XML.test(text) ? text.replace(NOT_XML_ALL, "\uFFFD") : text;
  if (out.includes("\n") || out.includes("\r")) out = out.replace(/\r\n?|\n/g, " ");
  return out;
}

/** Text safe for XML attributes and core properties (titles, alt text). */
export function xmlSafe(text: string): string {
  return NOT_XML.test(text) ? text.replace(NOT_XML_ALL, "\uFFFD") : text;
}

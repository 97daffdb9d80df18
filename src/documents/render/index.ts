// markdown → .docx rendering (docs/api.md "Markdown to .docx") and the text that goes with it ("REST documents interface").
export { renderDocument, type RenderOptions, type RenderResult } from "./package.ts";
export { normalizeExtractedText } from "./text.ts";

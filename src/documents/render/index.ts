// markdown → .docx rendering (CONTRACT §5) and the text that goes with it (CONTRACT §4).
export { renderDocument, type RenderOptions, type RenderResult } from "./render.ts";
export { normalizeExtractedText } from "./text.ts";

// What the documents service needs from rendering: markdown in, .docx bytes and their text out.
export interface RenderedDocument {
  docx: Uint8Array;
  /** The text of the .docx, as mammoth would extract it, derived while rendering. */
  text: string;
}

export interface DocumentRenderer {
  render(markdown: string, title: string, signal?: AbortSignal): Promise<RenderedDocument>;
  close(): Promise<void>;
}

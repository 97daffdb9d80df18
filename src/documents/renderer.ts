// What the documents service needs from rendering: markdown in, .docx bytes and their text out;
// and the way back, an uploaded .docx in, its text and markdown out.
import { GatewayError } from "../core/errors.ts";

export interface RenderedDocument {
  docx: Uint8Array;
  /** The text of the .docx, as mammoth would extract it, derived while rendering. */
  text: string;
}

export interface RenderCallOptions {
  /** The caller's request: when it aborts, the render is dropped (waiting) or stopped (running). */
  signal?: AbortSignal | undefined;
  /** Whose render this is (the owner's user id): waiting renders are served fairly across principals. */
  principal?: string | undefined;
}

/** What an uploaded .docx holds, for storing and reading. */
export interface ExtractedDocument {
  /** Its text in the shape of RenderedDocument.text (paragraphs, list items, table cells each followed by a blank line, trailing newlines removed). */
  text: string;
  /** Its structure as markdown (headings, lists, tables, links, code, emphasis) that renders back to the same blocks. */
  markdown: string;
  /**
   * The package written anew from the parts that were checked (every XML part re-serialised from
   * what the parser read, binary parts copied): what is stored, so what is served is what was checked.
   */
  docx: Uint8Array;
}

export interface DocumentRenderer {
  render(markdown: string, title: string, options?: RenderCallOptions): Promise<RenderedDocument>;
  /** Validates an uploaded .docx and extracts its text (§4 shape) and markdown, in the worker pool. Throws GatewayError. */
  extract(docx: Uint8Array, options?: RenderCallOptions): Promise<ExtractedDocument>;
  close(): Promise<void>;
}

/** A render or extraction whose caller went away; nobody reads it, but logs show it. */
export const cancelled = (): GatewayError => new GatewayError("BAD_USER_INPUT", "The request was cancelled");

// What the documents service needs from rendering: markdown in, .docx bytes and their text out.
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

export interface DocumentRenderer {
  render(markdown: string, title: string, options?: RenderCallOptions): Promise<RenderedDocument>;
  close(): Promise<void>;
}

/** A render whose caller went away; nobody reads it, but logs show it. */
export const cancelled = (): GatewayError => new GatewayError("BAD_USER_INPUT", "The request was cancelled");

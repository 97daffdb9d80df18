// Renders and imports in pools of their own. An import is the one job a small upload can make
// heavy (a .docx inflating to 200 MB), so it never takes a render worker: a caller's heavy import
// holds at most the import pool, and everyone's creates and updates keep theirs (issue 23,
// finding 4). Both pools have every bound of ./index.ts.
import type { DocumentRenderer, ExtractedDocument, RenderCallOptions, RenderedDocument } from "../renderer.ts";
import type { RenderPool } from "./index.ts";

export class DocumentPools implements DocumentRenderer {
  constructor(
    readonly renders: RenderPool,
    readonly imports: RenderPool,
  ) {}

  render(markdown: string, title: string, options?: RenderCallOptions): Promise<RenderedDocument> {
    return this.renders.render(markdown, title, options);
  }

  extract(docx: Uint8Array, options?: RenderCallOptions): Promise<ExtractedDocument> {
    return this.imports.extract(docx, options);
  }

  async close(): Promise<void> {
    await Promise.all([this.renders.close(), this.imports.close()]);
  }
}

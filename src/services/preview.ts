// A document's markdown as the HTML its reader sees (the owner's application's document page, its
// editor's live preview, a share link's page): the renderer's own markdown pipeline, sanitised
// (src/documents/render/preview.ts). Longer markdown than a document may hold is refused as the
// documents' writes refuse it.
import { MARKDOWN_LIMIT } from "../contract/documents.ts";
import { GatewayError } from "../core/errors.ts";
import { renderPreviewHtml } from "../documents/render/preview.ts";

export function markdownPreview(markdown: string): string {
  if (markdown.length > MARKDOWN_LIMIT) {
    throw new GatewayError("PAYLOAD_TOO_LARGE", `Markdown is limited to ${MARKDOWN_LIMIT} characters`, {
      details: { limit: MARKDOWN_LIMIT, length: markdown.length },
    });
  }
  return renderPreviewHtml(markdown);
}

// What a share link reads, whatever it names: the token is looked up once, then the document's
// text (or .docx) or the spreadsheet's record and a range (or .xlsx) is read for it.
import type { RequestContext } from "../core/context.ts";
import type { DocumentText } from "../contract/documents.ts";
import type { StoredDownload } from "../contract/files.ts";
import { DOCX_MEDIA_TYPE } from "../contract/files.ts";
import type { RenderMode } from "../spreadsheets/workbook/values.ts";
import type { Store } from "../store/types.ts";
import type { DocumentsService } from "./documents.ts";
import { shareTarget } from "./share-links.ts";
import type { SpreadsheetsService } from "./spreadsheets/index.ts";
import type { SharedSpreadsheet } from "./spreadsheets/shares.ts";

type SharedInput = { token: string; maxChars: number; format: "text" | "markdown"; maxCells: number; range?: string | undefined };
export type SharedService = ReturnType<typeof createSharedService>;

export function createSharedService(deps: { store: Store; documents: DocumentsService; sheets: SpreadsheetsService }) {
  return {
    async read(ctx: RequestContext, input: SharedInput & { render?: RenderMode | undefined }): Promise<DocumentText | SharedSpreadsheet> {
      const { token, maxChars, format, maxCells, range, render } = input;
      const target = await shareTarget(deps.store, token);
      if (target.kind === "workbook")
        return deps.sheets.readShared(ctx, target.record, { maxCells, render, ...(range === undefined ? {} : { range }) });
      return deps.documents.readSharedDocument(ctx, target.record, { maxChars, format });
    },
    async download(_ctx: RequestContext, { token }: { token: string }): Promise<StoredDownload> {
      const target = await shareTarget(deps.store, token);
      if (target.kind === "workbook") return deps.sheets.downloadShared(target.record);
      const file = await deps.documents.downloadSharedDocument(target.record);
      return { name: file.name, extension: "docx", contentType: DOCX_MEDIA_TYPE, bytes: file.docx, version: file.version };
    },
  };
}

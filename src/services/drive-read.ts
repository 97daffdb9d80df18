// files.read (MCP drive_read): a drive file's text, for an agent that found it with drive_search.
// Plain text, markdown and CSV as they are; a .docx through the same extraction as a documents
// import (the render pool); an .xlsx through the spreadsheet import reader (its first sheet as
// CSV, in the spreadsheets pool). Bounded by maxChars as documents.read is; nothing is stored.
import type { z } from "zod";
import { requireOwner } from "../auth/authenticate.ts";
import type { RequestContext } from "../core/context.ts";
import { GatewayError } from "../core/errors.ts";
import type { DocumentRenderer } from "../documents/renderer.ts";
import { DOCX_UPLOAD_LIMIT_BYTES } from "../documents/import/limits.ts";
import type { SheetsPool } from "../spreadsheets/pool/index.ts";
import type { driveFileTextSchema } from "../contract/products.ts";
import { inContractWords, jobOwner } from "./spreadsheets/access.ts";
import type { DriveFileBytes } from "./drive-files.ts";

export type DriveFileText = z.output<typeof driveFileTextSchema>;

export interface DriveReader {
  read(ctx: RequestContext, input: { id: string; maxChars: number }): Promise<DriveFileText>;
}

export interface DriveReaderDeps {
  renderer: DocumentRenderer;
  sheetsPool: SheetsPool;
  driveFile(ctx: RequestContext, fileId: string, limit: number): Promise<DriveFileBytes>;
}

/** Bytes a drive file drive_read reads may have: a .docx import's limit. */
export const DRIVE_READ_LIMIT_BYTES = DOCX_UPLOAD_LIMIT_BYTES;

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
/** Media types read as text besides text/*: what drives label markdown, CSV and JSON with. */
const TEXT_TYPES = new Set(["application/json", "application/csv", "application/x-markdown", "application/xml"]);
const TEXT_EXTENSIONS = /\.(txt|md|markdown|csv|tsv|json|log|xml|ya?ml)$/i;

/** How a file is read, by its media type (else its name), or undefined when drive_read does not read it. */
export function formatOf(name: string, contentType: string): DriveFileText["format"] | undefined {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type === DOCX_TYPE || (type === "application/octet-stream" && /\.docx$/i.test(name))) return "docx";
  if (type === XLSX_TYPE || (type === "application/octet-stream" && /\.xlsx$/i.test(name))) return "xlsx";
  if (type.startsWith("text/") || TEXT_TYPES.has(type) || TEXT_EXTENSIONS.test(name)) return "text";
  return undefined;
}

export function createDriveReader(deps: DriveReaderDeps): DriveReader {
  const textOf = async (ctx: RequestContext, format: DriveFileText["format"], bytes: Uint8Array): Promise<string> => {
    if (format === "docx")
      return (await deps.renderer.extract(bytes, { signal: ctx.signal, principal: ctx.principal.userId ?? undefined })).text;
    if (format === "xlsx") {
      const owner = jobOwner(ctx, ctx.principal.userId === null ? "" : requireOwner(ctx.principal));
      const output = await deps.sheetsPool
        .run({ kind: "csv", bytes }, undefined, owner)
        .catch((error: unknown) => Promise.reject(inContractWords(error)));
      if (output.kind !== "bytes") throw new GatewayError("INTERNAL", "A spreadsheet read answered something else");
      return new TextDecoder().decode(output.bytes);
    }
    try {
      return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      throw new GatewayError("UNSUPPORTED_MEDIA_TYPE", "The drive file is not UTF-8 text");
    }
  };
  return {
    async read(ctx, { id, maxChars }) {
      const file = await deps.driveFile(ctx, id, DRIVE_READ_LIMIT_BYTES);
      const name = file.filename ?? id;
      const format = formatOf(name, file.contentType);
      if (!format) {
        throw new GatewayError(
          "UNSUPPORTED_MEDIA_TYPE",
          `drive_read reads plain text, markdown, CSV, .docx and .xlsx; ${name} is ${file.contentType}: open it from drive_get's webUrl`,
        );
      }
      const text = await textOf(ctx, format, file.bytes);
      return {
        id,
        name,
        mimeType: file.contentType,
        format,
        text: text.slice(0, maxChars),
        truncated: text.length > maxChars,
        totalChars: text.length,
      };
    },
  };
}

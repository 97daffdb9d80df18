// The kinds of stored item (a document, a workbook, whatever comes next) as the store's one
// lifecycle sees them: where a kind's records and versions live, which columns describe its
// content, how its rows map to records. Records, versions, trash, restore, purge and idempotency
// are written once for both databases (lifecycle.ts) over these; a kind supplies only its content
// (how it is stored and collected) and its own reads.
import { camel, rowMapper } from "./rows.ts";
import type { IdempotentOperation, ItemRecord, ShareKind, SheetSummary } from "./types.ts";
import type { DocumentRecord, NewDocument, NewItem, NewWorkbook, VersionRecord, WorkbookRecord, WorkbookVersionRecord } from "./types.ts";

/** A kind as its spec names it: every column list, row mapping and record below is derived from `own`. */
interface KindSpec<N> {
  /** The share and trash kind. */
  name: ShareKind;
  table: string;
  /** The table of earlier versions, and its column naming the item. */
  versions: string;
  versionOf: string;
  /** The columns the kind's records and versions have besides every item's; `hash`, its content's hash, stored with them. */
  own: readonly string[];
  hash: string;
  /** Conversions of a row's values where one is needed (PostgreSQL's bigints come back as strings…). */
  convert?: Record<string, (value: never) => unknown>;
  /** A new item's source, size and own fields, from its input. */
  fresh(input: N): { source: string; sizeBytes: number };
  /** The idempotency operation of a create without one. */
  createOperation: IdempotentOperation;
}

function itemKind<R extends ItemRecord, V, N extends NewItem>({ own, convert, fresh, ...spec }: KindSpec<N>) {
  const summaryColumns = `id, owner_id, name, created_at, updated_at, size_bytes, ${own.join(", ")}, version, updated_by, source, deleted_at`;
  const versionColumns = `version, name, created_at, created_by, size_bytes, ${own.join(", ")}, source`;
  // The current version's fields from the record's: it was made when the record was last updated, by its author.
  const fromRecord: Record<string, string> = { createdAt: "updatedAt", createdBy: "updatedBy" };
  const versionFields = versionColumns.split(", ").map(camel);
  return {
    ...spec,
    /** The columns, on the item and its versions alike, that describe a version's content; the last is its hash. */
    content: ["size_bytes", ...own.filter((column) => column !== spec.hash), spec.hash] as readonly string[],
    /** The record's columns (never its content's bytes), and a version's. */
    summaryColumns,
    versionColumns,
    toRecord: rowMapper<R>(summaryColumns, convert),
    toVersion: rowMapper<V>(versionColumns, convert),
    /** The current version, as the item's history lists it. */
    current(record: R): V {
      return Object.fromEntries(versionFields.map((field) => [field, record[(fromRecord[field] ?? field) as keyof R]])) as V;
    },
    /** A new item's record, version 1. */
    newRecord(input: N): R {
      const { id, ownerId, name, createdAt, createdBy: updatedBy } = input;
      const { source, ...facts } = fresh(input);
      return { id, ownerId, name, createdAt, updatedAt: createdAt, version: 1, updatedBy, source, deletedAt: null, ...facts } as R;
    },
  };
}
export type ItemKind<R extends ItemRecord = ItemRecord, V = unknown, N extends NewItem = never> = ReturnType<typeof itemKind<R, V, N>>;

export const documentKind = itemKind<DocumentRecord, VersionRecord, NewDocument>({
  name: "document",
  table: "documents",
  versions: "document_versions",
  versionOf: "document_id",
  own: ["characters"],
  hash: "content_hash",
  fresh: (doc) => ({ source: doc.source ?? "markdown", sizeBytes: doc.docx.byteLength, characters: doc.text.length }),
  createOperation: "documents.create",
});

export const workbookKind = itemKind<WorkbookRecord, WorkbookVersionRecord, NewWorkbook>({
  name: "workbook",
  table: "workbooks",
  versions: "workbook_versions",
  versionOf: "workbook_id",
  own: ["cells", "sheets", "manifest_hash"],
  hash: "manifest_hash",
  // Sizes and counts are numbers (PostgreSQL's bigints come back as strings); sheets are JSON text.
  convert: { size_bytes: Number, cells: Number, sheets: (text: string) => JSON.parse(text) as SheetSummary[] },
  fresh: ({ source, sizeBytes, cells, sheets, manifestHash }) => ({ source, sizeBytes, cells, sheets, manifestHash }),
  createOperation: "sheets.create",
});

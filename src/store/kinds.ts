// The kinds of stored item (a document, a workbook, whatever comes next) as the store's one
// lifecycle sees them: where a kind's records and versions live, which columns describe its
// content, how its rows map to records. Records, versions, trash, restore, purge and idempotency
// are written once for both databases (lifecycle.ts) over these; a kind supplies only its content
// (how it is stored and collected) and its own reads.
import { camel, rowMapper } from "./rows.ts";
import { foldName, type IdempotentOperation, type ItemChange, type ItemRecord, type Outcome, type SheetSummary } from "./types.ts";
import type { DocumentRecord, NewDocument, NewItem, NewWorkbook, VersionRecord, WorkbookRecord, WorkbookVersionRecord } from "./types.ts";

/** A kind as its spec names it: every column list, row mapping and record below is derived from `own`. */
interface KindSpec<N> {
  /** The share and trash kind. */
  name: "document" | "workbook";
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
  /** What a purge empties besides versions, shares and idempotency records (`table WHERE column`). */
  ownTables: readonly string[];
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
  ownTables: [],
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
  ownTables: ["workbook_values WHERE workbook_id"],
  createOperation: "sheets.create",
});

/** Hashes grouped by owner, in owner order (PostgreSQL takes the owners' usage locks in that order). */
export function byOwner(rows: readonly { owner_id: string; hash: string }[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const row of [...rows].sort((a, b) => (a.owner_id < b.owner_id ? -1 : a.owner_id > b.owner_id ? 1 : 0))) {
    if (!groups.get(row.owner_id)?.push(row.hash)) groups.set(row.owner_id, [row.hash]);
  }
  return groups;
}

/** Versions are integer columns: a larger number is no version (and a larger bound "all of them"), not an error. */
export const MAX_INT = 2_147_483_647;
export const isVersion = (n: number): boolean => Number.isSafeInteger(n) && n >= 1 && n <= MAX_INT;

/** The statements both databases run alike, with their own placeholders (`p(name)`). */
export function lifecycleSql(kind: ItemKind, p: (name: string) => string) {
  const { table, versions, versionOf, content, hash } = kind;
  const head = "name = " + p("name") + ", name_folded = " + p("nameFolded") + ", updated_at = " + p("at");
  const set = `${head}, updated_by = ${p("actorId")}, source = ${p("source")}, version = version + 1`;
  return {
    insert: `INSERT INTO ${table} (id, owner_id, name, name_folded, created_at, updated_at, version, updated_by, source, ${content.join(", ")})
      VALUES (${["id", "ownerId", "name", "nameFolded", "createdAt", "createdAt"].map(p).join(", ")}, 1, ${p("createdBy")}, ${p("source")},
        ${content.map(p).join(", ")})`,
    keepVersion: `INSERT INTO ${versions} (${versionOf}, version, owner_id, name, created_at, created_by, replaced_at, source, ${content.join(", ")})
      SELECT id, version, owner_id, name, updated_at, updated_by, ${p("at")}, source, ${content.join(", ")} FROM ${table} WHERE id = ${p("id")}`,
    changeContent: `UPDATE ${table} SET ${set}, ${content.map((column) => `${column} = ${p(column)}`).join(", ")} WHERE id = ${p("id")}`,
    changeName: `UPDATE ${table} SET ${set} WHERE id = ${p("id")}`,
    trash: `UPDATE ${table} SET deleted_at = ${p("at")} WHERE id = ${p("id")}`,
    untrash: `UPDATE ${table} SET deleted_at = NULL WHERE owner_id = ${p("ownerId")} AND id = ${p("id")} AND deleted_at IS NOT NULL`,
    hashesOf: `SELECT ${hash} AS hash FROM ${table} WHERE id = ${p("id")} UNION SELECT ${hash} FROM ${versions} WHERE ${versionOf} = ${p("id")}`,
    purge: [
      `DELETE FROM ${versions} WHERE ${versionOf} = ${p("id")}`,
      ...kind.ownTables.map((owned) => `DELETE FROM ${owned} = ${p("id")}`),
      `DELETE FROM shares WHERE target_id = ${p("id")}`,
      `DELETE FROM idempotency WHERE target_id = ${p("id")}`,
      `DELETE FROM ${table} WHERE id = ${p("id")}`,
    ],
    listVersions: `SELECT ${kind.versionColumns} FROM ${versions}
      WHERE ${versionOf} = ${p("id")} AND version < ${p("before")} ORDER BY version DESC LIMIT ${p("limit")}`,
    getVersion: `SELECT ${kind.versionColumns} FROM ${versions} WHERE ${versionOf} = ${p("id")} AND version = ${p("n")}`,
  };
}

/** The insert's values of a new record, besides its content columns. */
export const insertValues = (record: ItemRecord) => ({
  id: record.id,
  ownerId: record.ownerId,
  name: record.name,
  nameFolded: foldName(record.name),
  createdAt: record.createdAt,
  createdBy: record.updatedBy,
  source: record.source,
});

/** The values a change sets besides its content columns. */
export const changeValues = (change: ItemChange<unknown, never>, current: ItemRecord) => {
  const name = change.name ?? current.name;
  return { id: change.id, name, nameFolded: foldName(name), at: change.at, actorId: change.actorId, source: change.source };
};

/** The stale-version answer of a conditional write, or null when it may go on. */
export const stale = (expectedVersion: number | undefined, current: ItemRecord): Outcome<never> | null =>
  expectedVersion !== undefined && expectedVersion !== current.version ? { ok: false, reason: "conflict", current: current.version } : null;

// The owner's list on PostgreSQL at 10,000 items (docs/app.md "Built light"): the statements the
// store sends for a page of documents and of spreadsheets are planned as an ordered walk of an
// index that stops after the page — no sort of the owner's every row — even on a table bulk-loaded
// a moment ago and not yet analyzed, when the planner has no statistics to go on. The statements
// are the store's own, caught on their way to the pool, and explained with the same parameters.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openPostgresStore, type PostgresStore } from "../../src/store/postgres.ts";
import { usePostgresSchema } from "../helpers/postgres.ts";

const { databaseUrl } = usePostgresSchema("list_plan");
const OWNER = "big-owner";
const ITEMS = 10_000;
let store: PostgresStore;
let admin: pg.Client;

/** `prefix` + a ULID-shaped id whose order is i's. */
const idOf = (prefix: string, i: number) => `${prefix}${i.toString(32).toUpperCase().padStart(26, "0")}`;

beforeAll(async () => {
  store = await openPostgresStore(databaseUrl);
  admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  // Rows as the store writes them, loaded at once; autovacuum kept away so no statistics appear.
  for (const table of ["documents", "workbooks"]) await admin.query(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
  const ids = (prefix: string) => Array.from({ length: ITEMS }, (_, i) => idOf(prefix, i));
  await admin.query(
    `INSERT INTO documents (id, owner_id, name, name_folded, created_at, updated_at, version, updated_by, source, size_bytes, characters, content_hash)
     SELECT id, $2, 'Document ' || n, 'document ' || n, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 1, $2, 'markdown', 1, 1, 'h'
     FROM unnest($1::text[]) WITH ORDINALITY AS x (id, n)`,
    [ids("doc_"), OWNER],
  );
  await admin.query(
    `INSERT INTO workbooks (id, owner_id, name, name_folded, created_at, updated_at, version, updated_by, source, size_bytes, cells, sheets, manifest_hash)
     SELECT id, $2, 'Sheet ' || n, 'sheet ' || n, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 1, $2, 'create', 1, 1, '[]', 'h'
     FROM unnest($1::text[]) WITH ORDINALITY AS x (id, n)`,
    [ids("wb_"), OWNER],
  );
});
afterAll(async () => {
  await admin?.end();
  await store?.close();
});

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** The plan of each statement `read` sends to the pool. */
async function plansOf(read: () => Promise<unknown>): Promise<PlanNode[][]> {
  const sent: { text: string; values: unknown[] }[] = [];
  const query = store.pool.query.bind(store.pool) as (...args: unknown[]) => Promise<unknown>;
  const spy = vi.spyOn(store.pool, "query").mockImplementation(((...args: unknown[]) => {
    const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    sent.push(typeof first === "string" ? { text: first, values: second ?? [] } : { text: first.text, values: first.values ?? [] });
    return query(...args);
  }) as never);
  try {
    await read();
  } finally {
    spy.mockRestore();
  }
  const plans: PlanNode[][] = [];
  for (const { text, values } of sent) {
    const { rows } = await admin.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${text}`, values);
    plans.push(nodesOf(rows[0]!["QUERY PLAN"][0].Plan));
  }
  return plans;
}

describe("an owner's newest items on PostgreSQL, before any statistics", () => {
  it("are read in index order, a page and no more: no sort of the owner's 10,000 documents or spreadsheets", async () => {
    const { rows } = await admin.query<{ relname: string; analyzed: boolean }>(
      `SELECT relname, (last_analyze IS NOT NULL OR last_autoanalyze IS NOT NULL) AS analyzed FROM pg_stat_user_tables
       WHERE schemaname = current_schema() AND relname IN ('documents', 'workbooks')`,
    );
    expect(rows.every((row) => !row.analyzed)).toBe(true);
    const first = { ownerId: OWNER, limit: 51 };
    const deep = { ownerId: OWNER, limit: 51, beforeId: idOf("doc_", 2_500) };
    for (const [label, read] of [
      ["documents, first page", () => store.documents.list(first)],
      ["documents, a cursor 7,500 in", () => store.documents.list(deep)],
      ["spreadsheets, first page", () => store.workbooks.list(first)],
      ["spreadsheets, a cursor 7,500 in", () => store.workbooks.list({ ...deep, beforeId: idOf("wb_", 2_500) })],
    ] as const) {
      const plans = await plansOf(read);
      expect(plans, label).toHaveLength(1);
      const nodes = plans[0]!;
      expect(
        nodes.map((n) => n["Node Type"]),
        label,
      ).not.toContain("Sort");
      expect(
        nodes.some((n) => n["Node Type"] === "Index Scan" || n["Node Type"] === "Index Only Scan"),
        label,
      ).toBe(true);
    }
    expect((await store.documents.list(first)).map((d) => d.id)[0]).toBe(idOf("doc_", ITEMS - 1));
    expect((await store.documents.list(deep)).map((d) => d.id)[0]).toBe(idOf("doc_", 2_499));
  });
});

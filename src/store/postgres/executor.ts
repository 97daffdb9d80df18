// The SQL executor of the PostgreSQL store (../sql.ts): `:name` placeholders become `$n` (once per
// statement text), hot statements are named prepared statements, and a transaction's steps are
// awaited one by one on one client.
import { driveAsync, type Executor, type Step, type Tx } from "../sql.ts";
import type { Row } from "../rows.ts";
import type pg from "pg";
import { inTransaction, type PgContext } from "./connection.ts";

/** Named placeholders as `$n` (a cast's `::` is not one), and the names in their order. */
function positional(text: string): { text: string; names: string[] } {
  const names: string[] = [];
  const sql = text.replace(/(?<!:):([A-Za-z_]\w*)/g, (_, name: string) => {
    const at = names.indexOf(name);
    if (at >= 0) return `$${at + 1}`;
    names.push(name);
    return `$${names.length}`;
  });
  return { text: sql, names };
}

// Statement texts are few, but an `IN (…)` list makes one per length: past the bound the cache
// starts again rather than growing for the process's life.
const MAX_TEXTS = 1024;
const texts = new Map<string, { text: string; names: string[] }>();
const config = (text: string, values: Record<string, unknown>, name?: string, prepared?: PgContext["prepared"]): pg.QueryConfig => {
  let found = texts.get(text);
  if (!found) {
    if (texts.size >= MAX_TEXTS) texts.clear();
    texts.set(text, (found = positional(text)));
  }
  const params = found.names.map((key) => values[key]);
  return name && prepared ? prepared(name, found.text, params) : { text: found.text, values: params };
};

/** Steps run on the client, inside its transaction (a write's own SQL). */
export const onClient = <T>(client: pg.PoolClient, steps: Tx<T, pg.PoolClient>): Promise<T> =>
  driveAsync(steps, async (next: Step<pg.PoolClient>) =>
    "call" in next ? next.call(client) : (await client.query<Row>(config(next.text, next.values))).rows,
  );

export function postgresExecutor({ pool, prepared }: PgContext): Executor<pg.PoolClient> {
  return {
    dialect: { forUpdate: " FOR UPDATE", skipLocked: " FOR UPDATE SKIP LOCKED", position: "strpos" },
    all: async (text, values = {}, name) => (await pool.query<Row>(config(text, values, name, prepared))).rows,
    run: async (text, values = {}) => (await pool.query(config(text, values))).rowCount ?? 0,
    transaction: (steps) => inTransaction(pool, (client) => onClient(client, steps())),
  };
}

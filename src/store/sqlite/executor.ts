// The SQL executor of the SQLite store (../sql.ts): better-sqlite3 takes `:name` placeholders as
// they are; each statement is prepared once, and a transaction's steps run synchronously inside
// one immediate transaction.
import type { Statement } from "better-sqlite3";
import { drive, type Executor, type Step, type Tx } from "../sql.ts";
import type { Row } from "../rows.ts";
import type { Db } from "./connection.ts";

export type SqliteExecutor = Executor<Db> & {
  /** Steps run at once, inside the caller's transaction (a synchronous write's own SQL). */
  now<T>(steps: Tx<T, Db>): T;
};

export function sqliteExecutor(db: Db): SqliteExecutor {
  const statements = new Map<string, Statement>();
  const prepare = (text: string) => {
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = db.prepare(text)));
    return statement;
  };
  const all = (text: string, values: Record<string, unknown>): Row[] => {
    const statement = prepare(text);
    if (statement.reader) return statement.all(values) as Row[];
    statement.run(values);
    return [];
  };
  const step = (next: Step<Db>) => ("call" in next ? next.call(db) : all(next.text, next.values));
  return {
    dialect: { forUpdate: "", skipLocked: "", position: "instr" },
    all: async (text, values = {}) => all(text, values),
    run: async (text, values = {}) => prepare(text).run(values).changes,
    transaction: async (steps) => db.transaction(() => drive(steps(), step)).immediate(),
    now: (steps) => drive(steps, step),
  };
}

import type { Config } from "../../core/config.ts";
import type { DocumentStore } from "./types.ts";

export type { DocumentStore } from "./types.ts";

/** PostgreSQL when DATABASE_URL is set, else the embedded SQLite file under DATA_DIR. */
export async function openStore(config: Pick<Config, "DATABASE_URL" | "DATA_DIR">): Promise<DocumentStore> {
  if (config.DATABASE_URL) {
    const { openPostgresStore } = await import("./postgres.ts");
    return openPostgresStore(config.DATABASE_URL);
  }
  const { openSqliteStore } = await import("./sqlite.ts");
  return openSqliteStore(config.DATA_DIR);
}

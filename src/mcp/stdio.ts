// `workspace-gateway mcp`: an MCP server on stdio that talks to a running gateway through the
// typed tRPC client — how an npm-distributed MCP server is used from an agent's config.
// stdout carries only MCP messages; every log line goes to stderr.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { createGatewayClient, type GatewayClient } from "../client/index.ts";
import { GatewayError } from "../core/errors.ts";
import { connectMcp, createMcpServer } from "./server.ts";
import { operationOf, type OperationName } from "../services/operations/index.ts";
import { parseToolList, selectTools, toolsForCredential, type McpBackend } from "./tools.ts";
import type { Principal } from "../core/principal.ts";
import type { ViewerInfo } from "../services/viewer.ts";

const tokenHelp =
  "a personal API key wgk_… for the documents and spreadsheet tools, an access token (GATEWAY_TOKEN) for the product tools, or both";

const envSchema = z
  .object({
    GATEWAY_URL: z.url({ protocol: /^https?$/, error: "GATEWAY_URL must be the gateway's http(s) base URL, e.g. http://127.0.0.1:4000" }),
    GATEWAY_API_KEY: z.string().min(1).optional(),
    // An access token: alone, the credential; beside GATEWAY_API_KEY, the product tools' (X-Access-Token, contract §2).
    GATEWAY_TOKEN: z.string().min(1).optional(),
    GATEWAY_STARTUP_TIMEOUT_MS: z.coerce
      .number({ error: "GATEWAY_STARTUP_TIMEOUT_MS must be a number of milliseconds" })
      .int()
      .min(1)
      .max(600_000)
      .default(10_000),
    MCP_TOOLS: z.string().optional(),
  })
  .superRefine((env, ctx) => {
    if (!env.GATEWAY_API_KEY && !env.GATEWAY_TOKEN) {
      ctx.addIssue({ code: "custom", path: ["GATEWAY_API_KEY"], message: `GATEWAY_API_KEY or GATEWAY_TOKEN is required: ${tokenHelp}` });
    }
  });

export class McpConfigError extends Error {
  override name = "McpConfigError";
}

/** How a fetch to the gateway failed at the network level (ECONNREFUSED, ENOTFOUND, …), or null. */
export function networkFailure(error: unknown): string | null {
  // TRPCClientError → TypeError("fetch failed") → the socket error (or an AggregateError of them).
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof TypeError && e.message === "fetch failed") {
      let cause: unknown = e.cause;
      if (cause instanceof AggregateError && cause.errors[0] instanceof Error) cause = cause.errors[0];
      if (!(cause instanceof Error)) return "fetch failed";
      const code = (cause as Error & { code?: unknown }).code;
      return typeof code === "string" && !cause.message.includes(code)
        ? `${code}: ${cause.message}`
        : cause.message || String(code ?? "fetch failed");
    }
  }
  return null;
}

function gatewayCodeOf(error: unknown): string | undefined {
  const data = error instanceof Error && "data" in error ? (error as { data?: { gatewayCode?: unknown } }).data : undefined;
  return typeof data?.gatewayCode === "string" ? data.gatewayCode : undefined;
}

/**
 * One call before serving, so a wrong URL or credential is an exit at start, not a failure per tool
 * call; its answer (the credential's kind and scopes) chooses the tools offered.
 */
async function checkGateway(client: GatewayClient, url: string, tokenVar: string, timeoutMs: number): Promise<ViewerInfo> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    return await client.viewer.query(undefined, { signal });
  } catch (error) {
    const network = networkFailure(error);
    if (network) throw new McpConfigError(`GATEWAY_URL ${url} could not be reached: ${network}`);
    if (signal.aborted) {
      throw new McpConfigError(`GATEWAY_URL ${url} did not answer within ${timeoutMs} ms (GATEWAY_STARTUP_TIMEOUT_MS)`);
    }
    const message = error instanceof Error ? error.message : String(error);
    const code = gatewayCodeOf(error);
    if (code === "UNAUTHENTICATED") throw new McpConfigError(`${tokenVar} was rejected by ${url}: ${message}`);
    if (code) throw new McpConfigError(`GATEWAY_URL ${url} refused the start-up check: ${code}: ${message}`);
    throw new McpConfigError(`GATEWAY_URL ${url} did not answer as a workspace gateway: ${message}`);
  }
}

/** An operation's input as its tRPC procedure takes it: an upload row's file (a Blob) and fields as multipart FormData. */
function trpcInput(name: OperationName, input: unknown): unknown {
  const upload = operationOf(name).upload;
  const fields = input as Record<string, unknown>;
  if (!upload || !(fields[upload.field] instanceof Blob)) return input;
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value instanceof Blob) form.append(key, value);
    else if (value !== undefined) form.append(key, String(value));
  }
  return form;
}

/** The gateway's procedure named as the operation (the tRPC path), a query or a mutation as the table says. */
function callProcedure(client: GatewayClient, name: OperationName, input: unknown): Promise<unknown> {
  const [namespace, procedure] = name.split(".") as [string, string];
  const procedures = (
    client as unknown as Record<
      string,
      Record<string, { query?(input: unknown): Promise<unknown>; mutate?(input: unknown): Promise<unknown> }>
    >
  )[namespace];
  const target = procedures?.[procedure];
  if (!target) throw new GatewayError("NOT_FOUND", `The gateway has no procedure ${name}`);
  return operationOf(name).kind === "query" ? target.query!(input) : target.mutate!(trpcInput(name, input));
}

export async function runStdioMcp(env: Record<string, string | undefined> = process.env): Promise<void> {
  // stdout is the protocol channel: a stray console.log from any library would corrupt it.
  console.log = console.info = console.debug = console.error;
  // Empty variables (e.g. GATEWAY_TOKEN= in a config) count as unset.
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== "")));
  if (!parsed.success) {
    throw new McpConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n"));
  }
  const { GATEWAY_URL: url, GATEWAY_API_KEY, GATEWAY_TOKEN, GATEWAY_STARTUP_TIMEOUT_MS, MCP_TOOLS } = parsed.data;
  let toolSet;
  try {
    toolSet = selectTools(parseToolList(MCP_TOOLS));
  } catch (error) {
    throw new McpConfigError(error instanceof Error ? error.message : String(error));
  }
  // Both: the key is the bearer and the token goes beside it (X-Access-Token), as on /mcp over HTTP.
  const pair = GATEWAY_API_KEY !== undefined && GATEWAY_TOKEN !== undefined;
  const tokenVar = pair ? "GATEWAY_API_KEY or GATEWAY_TOKEN" : GATEWAY_API_KEY ? "GATEWAY_API_KEY" : "GATEWAY_TOKEN";
  const client = createGatewayClient({ url, token: (GATEWAY_API_KEY ?? GATEWAY_TOKEN)!, ...(pair ? { accessToken: GATEWAY_TOKEN } : {}) });
  const viewer = await checkGateway(client, url, tokenVar, GATEWAY_STARTUP_TIMEOUT_MS);
  // The gateway's own view of the credential, as its /mcp would see it (the secrets stay here).
  const accessToken = viewer.credentialKind === "API_KEY" ? (pair ? GATEWAY_TOKEN : undefined) : (GATEWAY_API_KEY ?? GATEWAY_TOKEN);
  const principal: Principal = {
    kind: viewer.credentialKind === "API_KEY" ? "api_key" : "access_token",
    userId: viewer.id,
    tenant: viewer.tenant,
    scopes: new Set(viewer.scopes),
    verified: viewer.verified,
    ...(accessToken === undefined ? {} : { accessToken }),
  };
  const tools = toolsForCredential(toolSet, principal);

  // A gateway that goes away later: say so with the code of docs/api.md "Errors", not as an INTERNAL error.
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      const network = networkFailure(error);
      if (network) throw new GatewayError("UPSTREAM_UNAVAILABLE", `The gateway at ${url} could not be reached: ${network}`);
      throw error;
    }
  };
  // Links are resolved against GATEWAY_URL unless the gateway made them absolute (PUBLIC_URL).
  const backend: McpBackend = { run: (name, input) => call(() => callProcedure(client, name, input)), linkBase: url };
  const server = createMcpServer(
    backend,
    (error, tool) => {
      process.stderr.write(`[workspace-gateway mcp] ${tool} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    },
    tools.offered,
    tools.withheld,
  );
  await connectMcp(server, new StdioServerTransport());
  process.stderr.write(`[workspace-gateway mcp] serving on stdio for ${url}\n`);
}

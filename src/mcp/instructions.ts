// The server's `instructions`, generated from the tools it offers (their rows' titles, credentials
// and annotations), so that a new row, or MCP_TOOLS, changes them with no edit here.
import { operationOf, type OperationAuth } from "../services/operations/index.ts";
import type { ToolDefinition, ToolSet } from "./tools.ts";

const list = (tools: readonly ToolDefinition[]) => tools.map((tool) => `${tool.name} (${tool.title.toLowerCase()})`).join("; ");

/** What unlocks a row's tools, in words a model can pass on to its user. */
const unlocks: Record<OperationAuth, string> = {
  access_token:
    "an access token from the workspace's identity provider, alone or beside the personal API key (X-Access-Token, or GATEWAY_TOKEN with GATEWAY_API_KEY); a key is never forwarded to the products",
  "docs:read": "a personal API key (or verified access token) with the docs:read scope",
  "docs:write": "a personal API key (or verified access token) with the docs:write scope",
  "sheets:read": "a personal API key (or verified access token) with the sheets:read scope",
  "sheets:write": "a personal API key (or verified access token) with the sheets:write scope",
  "workspace:read": "a personal API key (or verified access token) with the docs:read or sheets:read scope",
  "workspace:write": "a personal API key (or verified access token) with the docs:write or sheets:write scope",
  share_token: "a share link's token",
};

/** The withheld tools (not offered to this credential), by what unlocks them. */
function withheldLines(withheld: readonly ToolDefinition[]): string[] {
  const byAuth = new Map<OperationAuth, string[]>();
  for (const tool of withheld) {
    const auth = operationOf(tool.operation).auth;
    byAuth.set(auth, [...(byAuth.get(auth) ?? []), tool.name]);
  }
  return [...byAuth].map(
    ([auth, names]) => `Not offered to this credential: ${names.join(", ")}; they need ${unlocks[auth]}. Connect with one to use them.`,
  );
}

export function instructionsFor(toolSet: ToolSet, withheld: readonly ToolDefinition[] = []): string {
  const own = toolSet.tools.filter((tool) => operationOf(tool.operation).auth !== "access_token");
  const products = toolSet.tools.filter((tool) => operationOf(tool.operation).auth === "access_token");
  const actsAtOnce = toolSet.tools.filter((tool) => tool.annotations.openWorldHint && !tool.annotations.readOnlyHint);
  const lines: string[] = [];
  if (own.length > 0) {
    lines.push(
      `The caller's own documents (a personal API key with the scope, or a verified access token): ${list(own)}. ` +
        "Changes take the version you read as expectedVersion; deleted ones stay in the trash 30 days.",
    );
  }
  if (products.length > 0)
    lines.push(`Products, with an access token (alone or beside a personal API key; a key alone is refused): ${list(products)}.`);
  lines.push(...withheldLines(withheld));
  lines.push("List tools return nextCursor: pass it back as cursor for the next page.");
  if (actsAtOnce.length > 0) {
    lines.push(
      `${actsAtOnce.map((tool) => tool.name).join(", ")} act at once on people or systems beyond the caller and cannot be undone.`,
    );
  }
  return lines.join("\n");
}

// The server's `instructions`, generated from the tools it offers (their rows' titles, credentials
// and annotations), so that a new row, or MCP_TOOLS, changes them with no edit here.
import { operationOf } from "../services/operations/index.ts";
import type { ToolDefinition, ToolSet } from "./tools.ts";

const list = (tools: readonly ToolDefinition[]) => tools.map((tool) => `${tool.name} (${tool.title.toLowerCase()})`).join("; ");

export function instructionsFor(toolSet: ToolSet): string {
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
  if (products.length > 0) lines.push(`Products, with an access token (a personal API key is refused): ${list(products)}.`);
  lines.push("List tools return nextCursor: pass it back as cursor for the next page.");
  if (actsAtOnce.length > 0) {
    lines.push(
      `${actsAtOnce.map((tool) => tool.name).join(", ")} act at once on people or systems beyond the caller and cannot be undone.`,
    );
  }
  return lines.join("\n");
}

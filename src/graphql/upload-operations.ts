// Which GraphQL uploads a personal API key may send. A multipart request's operation is only known
// once its `operations` field is read (the GraphQL multipart request spec sends it first), so the
// upload route authenticates any credential and this check runs on that field, before a byte of
// a file is spooled: a key may import documents, but uploadFile is a product operation and needs
// an access token — refused here rather than after its file has been written to disk.
import { Kind, parse, type DocumentNode } from "graphql";
import type { RequestContext } from "../core/context.ts";
import { GatewayError } from "../core/errors.ts";
import { operationsOn } from "../services/operations/index.ts";
import { requireAccessToken } from "../services/products.ts";

/** Root fields that upload to a product (the drive's uploadFile): an access token only. */
const PRODUCT_UPLOADS = new Set(
  operationsOn("graphql")
    .filter(([, op]) => op.upload && op.auth === "access_token")
    .flatMap(([, op]) => (op.graphql ?? []).map((spec) => spec.field.split(".")[1] as string)),
);

/** A key's operation document, parsed; one that does not parse is refused before its files are spooled. */
function parsed(query: unknown): DocumentNode {
  if (typeof query !== "string") throw new GatewayError("BAD_USER_INPUT", "operations: each operation needs a query string");
  try {
    return parse(query, { noLocation: true, maxTokens: 4000 });
  } catch (error) {
    throw new GatewayError("BAD_USER_INPUT", `operations: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Whether an operations document may select a product upload: a root uploadFile, or a fragment that could hide one. */
function mayUploadToProduct(document: DocumentNode): boolean {
  return document.definitions.some(
    (definition) =>
      definition.kind === Kind.OPERATION_DEFINITION &&
      definition.selectionSet.selections.some((selection) => selection.kind !== Kind.FIELD || PRODUCT_UPLOADS.has(selection.name.value)),
  );
}

/** The upload route's field check: refuses a key's `operations` that could upload to a product. */
export function checkUploadField(name: string, value: string, ctx: RequestContext): void {
  if (name !== "operations" || ctx.principal.kind !== "api_key") return;
  let operations: unknown;
  try {
    operations = JSON.parse(value);
  } catch {
    throw new GatewayError("BAD_USER_INPUT", "operations: not JSON");
  }
  const list: unknown[] = Array.isArray(operations) ? operations : [operations];
  for (const operation of list) {
    if (mayUploadToProduct(parsed((operation as { query?: unknown } | null)?.query))) requireAccessToken(ctx);
  }
}

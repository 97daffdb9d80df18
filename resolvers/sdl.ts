// The SDL files in schema/ (the source of truth for GraphQL types); schema.graphql is codegen's
// printed copy and is not read back. federation.graphql holds the Federation v2 directives
// (`@link`, `@key`, `@shareable`): it is read only for the served subgraph schema, never by
// codegen, so the printed schema stays plain GraphQL.
import { readdirSync, readFileSync } from "node:fs";

const schemaDir = new URL("../schema/", import.meta.url);

/** The file with the subgraph's federation directives. */
export const FEDERATION_SDL_FILE = "federation.graphql";

export function loadTypeDefs(): string[] {
  return readdirSync(schemaDir)
    .filter((file) => file.endsWith(".graphql") && file !== "schema.graphql" && file !== FEDERATION_SDL_FILE)
    .sort()
    .map((file) => readFileSync(new URL(file, schemaDir), "utf8"));
}

/** The types and the federation directives: what the served subgraph schema is built from. */
export function loadSubgraphTypeDefs(): string[] {
  return [...loadTypeDefs(), readFileSync(new URL(FEDERATION_SDL_FILE, schemaDir), "utf8")];
}

// The SDL files in schema/ (the source of truth for GraphQL types); schema.graphql is codegen's
// printed copy and is not read back.
import { readdirSync, readFileSync } from "node:fs";

const schemaDir = new URL("../schema/", import.meta.url);

export function loadTypeDefs(): string[] {
  return readdirSync(schemaDir)
    .filter((file) => file.endsWith(".graphql") && file !== "schema.graphql")
    .sort()
    .map((file) => readFileSync(new URL(file, schemaDir), "utf8"));
}

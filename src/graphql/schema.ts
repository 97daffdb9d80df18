// The executable schema: SDL from schema/ (the source of truth) plus the resolvers. Built once.
import { readdirSync, readFileSync } from "node:fs";
import { makeExecutableSchema } from "@graphql-tools/schema";
import type { GraphQLSchema } from "graphql";
import { resolvers } from "../../resolvers/index.ts";

const schemaDir = new URL("../../schema/", import.meta.url);

/** The domain SDL files; schema.graphql is codegen's printed copy and is not read back. */
export function loadTypeDefs(): string[] {
  return readdirSync(schemaDir)
    .filter((file) => file.endsWith(".graphql") && file !== "schema.graphql")
    .sort()
    .map((file) => readFileSync(new URL(file, schemaDir), "utf8"));
}

export function buildSchema(): GraphQLSchema {
  return makeExecutableSchema({ typeDefs: loadTypeDefs(), resolvers: resolvers as never });
}

// The executable schema: SDL from schema/ (the source of truth) plus the resolvers. Built once.
import { makeExecutableSchema } from "@graphql-tools/schema";
import type { GraphQLSchema } from "graphql";
import { resolvers } from "../../resolvers/index.ts";
import { loadTypeDefs } from "../../resolvers/sdl.ts";

export { loadTypeDefs };

export function buildSchema(): GraphQLSchema {
  return makeExecutableSchema({ typeDefs: loadTypeDefs(), resolvers: resolvers as never });
}

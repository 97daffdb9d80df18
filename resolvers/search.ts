import { defined } from "./nullable.ts";
import type { Resolvers } from "./types.generated.ts";

export const searchResolvers: Resolvers = {
  Query: {
    search: async (_root, { query, sources }, { services, request }) =>
      services.products.search.query(await request(), { query, ...defined({ sources }) }),
  },
  Mutation: {
    searchChat: async (_root, { input }, { services, request }) => services.products.search.chat(await request(), defined(input) as never),
  },
};

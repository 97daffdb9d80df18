import { upstreamConnection } from "./connection.ts";
import { defined } from "./nullable.ts";
import type { Resolvers } from "./types.generated.ts";

export const enterpriseResolvers: Resolvers = {
  Query: {
    invoices: async (_root, { status, first, after }, { services, request }) => {
      const ctx = await request();
      return upstreamConnection({ first, after }, (cursor, limit) =>
        services.products.enterprise.invoices(ctx, { ...defined({ status }), limit, ...(cursor ? { cursor } : {}) }),
      );
    },
    dataQuery: async (_root, { question }, { services, request }) => services.products.enterprise.dataQuery(await request(), { question }),
  },
  Mutation: {
    runWorkflow: async (_root, { id, input }, { services, request }) =>
      services.products.workflows.run(await request(), { id, ...(input === undefined ? {} : { input }) }),
  },
};

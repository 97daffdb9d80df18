import { viewerOf } from "../src/services/viewer.ts";
import type { Resolvers } from "./types.generated.ts";

export const viewerResolvers: Resolvers = {
  Query: {
    viewer: async (_root, _args, { request }) => viewerOf(await request()),
  },
};

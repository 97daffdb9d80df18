// All resolvers, merged by domain. The documents and viewer files are one service call per field;
// every product field is derived from the operation table (products.ts).
import { mergeResolvers } from "@graphql-tools/merge";
import { documentHistoryResolvers } from "./document-history.ts";
import { documentsResolvers } from "./documents.ts";
import { driveResolvers } from "./drive.ts";
import { productResolvers } from "./products.ts";
import { DateTime, JSON, Upload } from "./scalars.ts";
import type { Resolvers } from "./types.generated.ts";
import { viewerResolvers } from "./viewer.ts";

export const resolvers: Resolvers = mergeResolvers([
  { DateTime, JSON, Upload },
  viewerResolvers,
  documentsResolvers,
  documentHistoryResolvers,
  productResolvers,
  driveResolvers,
]) as Resolvers;

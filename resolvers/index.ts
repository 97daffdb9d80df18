// All resolvers, merged by domain. Each domain file is one service call per field.
import { mergeResolvers } from "@graphql-tools/merge";
import { documentHistoryResolvers } from "./document-history.ts";
import { documentsResolvers } from "./documents.ts";
import { driveResolvers } from "./drive.ts";
import { enterpriseResolvers } from "./enterprise.ts";
import { mailResolvers } from "./mail.ts";
import { meetingsResolvers } from "./meetings.ts";
import { DateTime, JSON, Upload } from "./scalars.ts";
import { searchResolvers } from "./search.ts";
import type { Resolvers } from "./types.generated.ts";
import { viewerResolvers } from "./viewer.ts";

export const resolvers: Resolvers = mergeResolvers([
  { DateTime, JSON, Upload },
  viewerResolvers,
  documentsResolvers,
  documentHistoryResolvers,
  mailResolvers,
  driveResolvers,
  searchResolvers,
  meetingsResolvers,
  enterpriseResolvers,
]) as Resolvers;

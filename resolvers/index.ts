// All resolvers: every field an operation backs is derived from the operation table
// (operations.ts); what is left is the viewer, the scalars, the enums' internal values and
// DriveFile.downloadUrl.
import { mergeResolvers } from "@graphql-tools/merge";
import { driveResolvers } from "./drive.ts";
import { enumValues } from "./enums.ts";
import { operationResolvers } from "./operations.ts";
import { DateTime, JSON, Upload } from "./scalars.ts";
import type { Resolvers } from "./types.generated.ts";
import { viewerResolvers } from "./viewer.ts";

export const resolvers: Resolvers = mergeResolvers([
  { DateTime, JSON, Upload },
  enumValues,
  viewerResolvers,
  operationResolvers,
  driveResolvers,
]) as Resolvers;

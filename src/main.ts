// `npm start` (and `workspace-gateway serve`). The `.env` file is read first (the real environment
// wins over it; see docs/configuration.md), so that it can set NODE_ENV too. NODE_ENV then defaults
// to production before any library is loaded: graphql-js and tRPC choose their development-only
// checks when they are imported, and graphql-js's cross-realm instanceof check costs several
// percent of every GraphQL request.
const { loadEnvFile } = await import("./core/env-file.ts");
try {
  loadEnvFile();
} catch (error) {
  process.stderr.write(`workspace-gateway failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
process.env["NODE_ENV"] ??= "production";
await import("./serve.ts");

// `npm start` (and `workspace-gateway serve`). NODE_ENV defaults to production before any library
// is loaded: graphql-js and tRPC choose their development-only checks when they are imported, and
// graphql-js's cross-realm instanceof check costs several percent of every GraphQL request.
process.env["NODE_ENV"] ??= "production";
await import("./serve.ts");

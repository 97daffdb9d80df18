import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // graphql 16 has no "exports": Node (and so production) loads its CommonJS main for every
    // importer, but Vite would give our transformed sources its "module" build, a second graphql
    // whose GraphQLError yoga's instanceof checks do not recognise. Tests use Node's choice.
    alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve("graphql") }],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // The fault suite runs on its own: `npm run test:faults` (vitest.faults.config.ts).
    exclude: ["test/faults/**", "**/node_modules/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two cores: more parallel files only adds contention with the gateway's own render workers.
    maxWorkers: 2,
  },
});

import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";
import { systemTests } from "./test/system-tests.ts";

export default defineConfig({
  resolve: {
    // graphql 16 has no "exports": Node (and so production) loads its CommonJS main for every
    // importer, but Vite would give our transformed sources its "module" build, a second graphql
    // whose GraphQLError yoga's instanceof checks do not recognise. Tests use Node's choice.
    alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve("graphql") }],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // The fault suite runs on its own: `npm run test:faults` (vitest.faults.config.ts); the suites
    // that install, start processes or services and drive external programs too: `npm run
    // test:system` (vitest.system.config.ts, test/system-tests.ts).
    exclude: ["test/faults/**", ...systemTests, "**/node_modules/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two cores: more parallel files only adds contention with the gateway's own render workers.
    maxWorkers: 2,
  },
});

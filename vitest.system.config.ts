// `npm run test:system`: the suites listed in test/system-tests.ts (package installs, builds,
// processes and services of their own, restarts, PgBouncer, Redis and PostgreSQL outages,
// LibreOffice, the browser, the demo), kept out of `npm test` so that the everyday loop stays short.
import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";
import { systemTests } from "./test/system-tests.ts";

export default defineConfig({
  resolve: {
    // As in vitest.config.ts: Node's graphql build for every importer.
    alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve("graphql") }],
  },
  test: {
    include: systemTests,
    exclude: ["**/node_modules/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
  },
});

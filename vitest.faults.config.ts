// `npm run test:faults`: the fault suite (test/faults/), kept out of `npm test` because it drives
// thousands of requests through a gateway process for about a minute (docs/resilience.md).
import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // As in vitest.config.ts: Node's graphql build for every importer.
    alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve("graphql") }],
  },
  test: {
    include: ["test/faults/**/*.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 1,
    // The suite's latency targets (median answer with the circuit open, slowest request) are
    // measured on a 2-core machine that a paused gateway or load generator can blow past once; a
    // second full run, with its own figures printed, must then meet them all again.
    retry: 1,
  },
});

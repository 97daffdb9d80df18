import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";
import { systemTests } from "./test/system-tests.ts";

/** Left out of `npm test`: the fault suite (`npm run test:faults`) and the system suites. */
export const notInNpmTest = ["test/faults/**", ...systemTests, "**/node_modules/**"];
/** Suites that bound this process's RSS: run each in a fresh process (the rest share workers). */
const measureTheProcess = [
  "test/uploads/memory.test.ts",
  "test/security/read-attack.test.ts",
  "test/documents/import/heavy-imports.test.ts",
  "test/spreadsheets/collect.test.ts",
];

export default defineConfig({
  resolve: {
    // graphql 16 has no "exports": Node (and so production) loads its CommonJS main for every
    // importer, but Vite would give our transformed sources its "module" build, a second graphql
    // whose GraphQLError yoga's instanceof checks do not recognise. Tests use Node's choice.
    alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve("graphql") }],
  },
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two cores: more parallel files only adds contention with the gateway's own render workers.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          include: ["test/**/*.test.ts"],
          // The fault suite runs on its own: `npm run test:faults` (vitest.faults.config.ts); the suites
          // that install, start processes or services and drive external programs too: `npm run
          // test:system` (vitest.system.config.ts, test/system-tests.ts).
          exclude: [...notInNpmTest, ...measureTheProcess],
          // One module cache per worker, not per file: re-importing the gateway (graphql, yoga, tRPC,
          // the renderer) cost each of ~150 files over a second before its first test. Safe because no
          // test mocks modules or leaves globals or environment variables changed (each file builds
          // its own gateways from an explicit config).
          isolate: false,
        },
      },
      // A test that bounds the process's own memory needs a process of its own.
      { extends: true, test: { name: "isolated", include: measureTheProcess, isolate: true } },
    ],
  },
});

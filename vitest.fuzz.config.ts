// `npm run fuzz:deep`: every property of the fuzz suite (test/fuzz/) for minutes rather than
// seconds, before each release (README "Tests and benches"). FUZZ_SCALE (default 1000) multiplies
// each property's runs and FUZZ_SECONDS (default 300) stops it, whichever comes first; each prints
// a `[fuzz]` line with its cases. One file at a time: the targets share the machine with a gateway
// and its render workers. A failure prints fast-check's counterexample and its seed. The formula
// fuzzer (test/fuzz/formulas.test.ts, engine-level) runs for 10 minutes at least: 100,000+ formulas.
import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

const scale = process.env["FUZZ_SCALE"] ?? "1000";
const seconds = Number(process.env["FUZZ_SECONDS"] ?? "300");

export default defineConfig({
  resolve: {
    // As in vitest.config.ts: Node's graphql build for every importer.
    alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve("graphql") }],
  },
  test: {
    include: ["test/fuzz/**/*.test.ts"],
    env: { FUZZ_SCALE: scale, FUZZ_SECONDS: String(seconds) },
    // A property stops after FUZZ_SECONDS; the margin covers its last case and LibreOffice's run.
    testTimeout: (seconds + 300) * 1000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 1,
  },
});

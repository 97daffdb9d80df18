import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two cores: more parallel files only adds contention with the gateway's own render workers.
    maxWorkers: 2,
  },
});

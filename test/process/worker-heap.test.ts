// A worker's young generation is its pool's, not the main thread's: `npm start` passes
// --max-semi-space-size=32 for request garbage (this test passes 64, to be far from the pool's 8),
// and V8 lets that flag override a worker's resourceLimits (at 64 a spreadsheets worker held
// ~190 MB of garbage between scavenges).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { root } from "../helpers/process.ts";

describe("worker heap limits", () => {
  it("keeps a worker's young generation at its pool's size under npm start's --max-semi-space-size", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--max-semi-space-size=64", "--import", "tsx", "test/process/worker-heap-child.ts"],
      { cwd: root, timeout: 60_000 },
    );
    const { plain, sized } = JSON.parse(stdout.trim().split("\n").at(-1)!) as { plain: number; sized: number };
    const mb = 1024 * 1024;
    // The control: the process-wide flag wins over resourceLimits: three 64 MB semi-spaces' worth
    // (Node 22, 24 and 26 alike), far past the 8 MB asked for.
    expect(plain).toBeGreaterThanOrEqual(64 * mb);
    // Through workerHeap: the young generation asked for (V8 reports 8 MB as 12 MB with its
    // large-object share), nowhere near the flag's.
    expect(sized).toBeLessThanOrEqual(16 * mb);
  });
});

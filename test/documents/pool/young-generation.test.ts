// A render worker empties its young generation between jobs, and collects everything once before its
// first (src/documents/pool/young-generation.ts): what was allocated is gone afterwards, and V8's
// collector is not left exposed.
import { getHeapSpaceStatistics } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { collectAll, emptyYoungGeneration } from "../../../src/documents/pool/young-generation.ts";

const spaceMb = (name: string): number =>
  getHeapSpaceStatistics()
    .filter((space) => space.space_name === name)
    .reduce((sum, space) => sum + space.space_used_size, 0) /
  (1024 * 1024);
const nurseryMb = (): number => spaceMb("new_space");

describe("emptyYoungGeneration", () => {
  it("leaves the nursery nearly empty after short-lived garbage", () => {
    // Garbage until the nursery holds a megabyte (a scavenge V8 starts meanwhile only delays that).
    let kept = 0;
    let round = 0;
    do {
      for (let i = 0; i < 1_000; i++) kept += { i, text: `garbage ${round} ${i}` }.text.length;
    } while (++round < 1_000 && nurseryMb() < 1);
    expect(kept).toBeGreaterThan(0);
    expect(nurseryMb()).toBeGreaterThanOrEqual(1);
    emptyYoungGeneration();
    expect(nurseryMb()).toBeLessThan(0.1);
  });

  it("does not leave gc exposed to contexts made afterwards", () => {
    emptyYoungGeneration();
    expect(runInNewContext("typeof gc")).toBe("undefined");
  });
});

describe("collectAll", () => {
  it("frees what was promoted to the old generation and then dropped (what a worker's loading leaves)", () => {
    // Kept through two scavenges, so promoted; then dropped.
    let kept: string[][] | undefined = Array.from({ length: 200 }, (_, i) => Array.from({ length: 1_000 }, (_, j) => `old ${i} ${j}`));
    emptyYoungGeneration();
    const before = spaceMb("old_space");
    expect(kept.length).toBe(200);
    kept = undefined;
    collectAll();
    // 200,000 short strings and their arrays: well over 8 MB, all of it garbage now.
    expect(before - spaceMb("old_space")).toBeGreaterThan(8);
    expect(runInNewContext("typeof gc")).toBe("undefined");
  });
});

// A render worker empties its young generation between jobs (src/documents/pool/young-generation.ts):
// what was allocated is gone from the nursery afterwards, and V8's collector is not left exposed.
import { getHeapSpaceStatistics } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { emptyYoungGeneration } from "../../../src/documents/pool/young-generation.ts";

const nurseryMb = (): number =>
  getHeapSpaceStatistics()
    .filter((space) => space.space_name === "new_space")
    .reduce((sum, space) => sum + space.space_used_size, 0) /
  (1024 * 1024);

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

// The full collection a spreadsheets worker runs after a large job: it frees dead objects at once,
// gives the freed pages back to the system, and leaves no `gc` to any other context.
import { getHeapStatistics } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { collectGarbage } from "../../src/spreadsheets/pool/collect.ts";

describe("collectGarbage", () => {
  it("frees what is dead now, and exposes gc to no other context", () => {
    collectGarbage();
    const before = getHeapStatistics().used_heap_size;
    let dead: string[][] | undefined = Array.from({ length: 4_000 }, (_, i) => Array.from({ length: 100 }, (_, j) => `cell ${i}:${j}`));
    // ~18 MB live; a scavenge while it is built may already have freed its temporaries.
    expect(getHeapStatistics().used_heap_size - before).toBeGreaterThan(6_000_000);
    dead = undefined;
    collectGarbage();
    expect(dead).toBeUndefined();
    expect(getHeapStatistics().used_heap_size - before).toBeLessThan(2_000_000);
    expect(runInNewContext("typeof gc")).toBe("undefined");
  });

  it("gives the freed pages back rather than pooling them (RSS falls)", () => {
    collectGarbage();
    let dead: { row: number; text: string }[] | undefined = Array.from({ length: 1_500_000 }, (_, row) => ({ row, text: `cell ${row}` }));
    const built = process.memoryUsage.rss();
    expect(dead.length).toBe(1_500_000);
    dead = undefined;
    collectGarbage();
    // ~100 MB of objects: a plain full collection frees them but keeps their pages (RSS stays).
    expect(built - process.memoryUsage.rss()).toBeGreaterThan(50_000_000);
  });
});

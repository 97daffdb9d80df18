// Large answers made on the event loop in slices (src/core/slices.ts; issue 37 F5): a 100,000-cell
// read from tiles, a CSV or markdown table of it, give the event loop turns while they are made,
// and answer exactly what the one-go versions answer.
import { describe, expect, it } from "vitest";
import { finish, inSlices } from "../../src/core/slices.ts";
import { markdownTable, markdownTableInSlices } from "../../src/spreadsheets/io/markdown.ts";
import { Workbook } from "../../src/spreadsheets/workbook/workbook.ts";
import { readTiles, readTilesInSlices } from "../../src/spreadsheets/tiles/tile-read.ts";
import { saveTiles } from "../../src/spreadsheets/tiles/tiles.ts";
import { round15 } from "../../src/spreadsheets/workbook/values.ts";

/** Counts the event loop's turns (setImmediate callbacks run) until stopped. */
function turns(): { stop(): number } {
  let count = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    count++;
    setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop() {
      running = false;
      return count;
    },
  };
}

/** A generator that spins for `ms` in steps of ~0.1 ms. */
function* spin(ms: number): Generator<void, string> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const step = performance.now() + 0.1;
    while (performance.now() < step);
    yield;
  }
  return "done";
}

describe("work in slices", () => {
  it("inSlices lets the event loop turn every few milliseconds; finish runs at once", async () => {
    const counted = turns();
    expect(finish(spin(30))).toBe("done");
    // No turn while the loop is held.
    await Promise.resolve();
    const held = counted.stop();
    expect(held).toBe(0);
    const sliced = turns();
    expect(await inSlices(spin(100), 5)).toBe("done");
    // 20 slices of 5 ms, but a machine busy enough to take the core away for longer than a slice
    // makes them fewer (2 were seen at a load average of 22): at least one turn, where finish gave none.
    expect(sliced.stop()).toBeGreaterThanOrEqual(1);
  });

  it("a 100,000-cell read from tiles and its markdown table answer what the one-go ones do, with turns in between", async () => {
    const values = Array.from({ length: 1000 }, (_, r) =>
      Array.from({ length: 100 }, (_, c) => (c % 3 === 0 ? `t${r}` : r * 100 + c + 0.25)),
    );
    const { workbook } = Workbook.create([{ name: "S", values }]);
    const saved = saveTiles(workbook);
    const tile = (hash: string) => saved.tiles.get(hash) ?? new Uint8Array();
    const options = { maxCells: 100_000 };
    const counted = turns();
    const read = await readTilesInSlices(saved.manifest, "S!A1:CV1000", tile, options);
    const table = await markdownTableInSlices(read.values as (string | number)[][]);
    const during = counted.stop();
    expect(read).toEqual(readTiles(saved.manifest, "S!A1:CV1000", tile, options));
    expect(table).toEqual(markdownTable(read.values as (string | number)[][]));
    expect(read.values).toHaveLength(1000);
    // Decoding and rendering 100,000 cells takes tens of milliseconds at least: some turns came.
    expect(during).toBeGreaterThan(0);
  });

  it("round15 keeps integers as they are and rounds the rest to 15 significant digits", () => {
    expect(round15(123456789012345)).toBe(123456789012345);
    expect(round15(-42)).toBe(-42);
    expect(Object.is(round15(-0), 0)).toBe(true);
    expect(round15(1234567890123456)).toBe(1234567890123460);
    expect(round15(0.1 + 0.2)).toBe(0.3);
  });
});

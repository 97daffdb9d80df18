// src/core/json-slices.ts writes what JSON.stringify writes, whatever the value holds.
import { describe, expect, it } from "vitest";
import { hasNodes, jsonInSlices } from "../../src/core/json-slices.ts";

describe("JSON in slices", () => {
  it("writes JSON.stringify's text: escapes, non-finite numbers, undefined and functions, toJSON, boxed values", async () => {
    const values: unknown[] = [
      { a: 1, b: 'x"\n\u2028\ud800', c: [1, undefined, () => 1, Symbol("s"), NaN, -0, Infinity], d: undefined, e: null },
      [new Date(0), { toJSON: (key: string) => `key:${key}` }, new Number(3), new String("s"), new Boolean(false)],
      { nested: { deep: [[[{}]], []] }, 'k"ey': true },
      "top",
      42,
      null,
      Array.from({ length: 3000 }, (_, i) => ({ i, s: `v${i}` })),
    ];
    for (const value of values) expect(await jsonInSlices(value)).toBe(JSON.stringify(value));
  });

  it("counts nodes up to a bound", () => {
    expect(hasNodes({ a: [1, 2, 3] }, 4)).toBe(true);
    expect(hasNodes({ a: [1, 2] }, 4)).toBe(false);
    expect(hasNodes("text", 1)).toBe(false);
  });
});

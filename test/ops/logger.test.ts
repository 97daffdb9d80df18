import { PassThrough } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { createLogger, lazyChild } from "../../src/core/logger.ts";

function capture(level: string) {
  const stream = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  stream.on("data", (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  return { logger: createLogger(level, stream), lines };
}

describe("lazyChild", () => {
  it("makes no child for a disabled level, and one child, with its bindings, on the first enabled call", async () => {
    const { logger, lines } = capture("warn");
    const child = vi.spyOn(logger, "child");
    const log = lazyChild(logger, { requestId: "r-1", authorization: "Bearer secret-token" });
    log.info({ a: 1 }, "not written");
    log.debug("not written either");
    expect(child).not.toHaveBeenCalled();
    log.warn({ b: 2 }, "first");
    log.error("second");
    expect(child).toHaveBeenCalledTimes(1);
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => [l["msg"], l["requestId"], l["level"]])).toEqual([
      ["first", "r-1", "warn"],
      ["second", "r-1", "error"],
    ]);
    expect(lines[0]!["b"]).toBe(2);
    // The bindings are redacted as an eager child's are.
    expect(JSON.stringify(lines)).not.toContain("secret-token");
  });

  it("answers level questions and makes grandchildren like a child does", async () => {
    const { logger, lines } = capture("info");
    const log = lazyChild(logger, { requestId: "r-2" });
    expect(log.level).toBe("info");
    expect(log.isLevelEnabled("debug")).toBe(false);
    log.child({ principal: "k1" }).info("nested");
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: "nested", requestId: "r-2", principal: "k1" });
  });
});

// The render pool: bounded concurrency and queue, refusal with SERVICE_UNAVAILABLE when full,
// cancellation while queued, recovery from a worker that dies, and a clean close.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { GatewayError } from "../../../src/core/errors.ts";
import { RenderPool } from "../../../src/documents/pool/index.ts";
import { mammothText } from "./docx.ts";

const generator = fileURLToPath(new URL("../../../../shared/tools/gen-markdown.mjs", import.meta.url));
const big = execFileSync(process.execPath, [generator, "200000", "3"], { encoding: "utf8", maxBuffer: 64 << 20 });

const pools: RenderPool[] = [];
function pool(options: ConstructorParameters<typeof RenderPool>[0]): RenderPool {
  const created = new RenderPool(options);
  pools.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

describe("RenderPool", () => {
  it("renders in a worker: the .docx and the text that mammoth would extract", async () => {
    const renderer = pool({ size: 1 });
    const { docx, text } = await renderer.render("# Hello\n\n- a\n- b\n", "Greeting");
    expect(text).toBe("Hello\n\na\n\nb");
    expect(await mammothText(docx)).toBe(text);
  });

  it("a worker warming up (RENDER_WARMUP) still takes real work, between its sample renders", async () => {
    const renderer = pool({ size: 1, warmup: 3 });
    await expect(renderer.render("# first", "first")).resolves.toMatchObject({ text: "first" });
    await expect(renderer.render("# second", "second")).resolves.toMatchObject({ text: "second" });
  });

  it("runs at most `size` renders and queues at most `maxQueue`; beyond that refuses at once", async () => {
    const renderer = pool({ size: 1, maxQueue: 1 });
    const first = renderer.render(big, "first");
    const second = renderer.render(big, "second");
    expect(renderer.load).toEqual({ running: 1, queued: 1 });
    const refused = await rejection(renderer.render("# small", "third"));
    expect(refused.code).toBe("SERVICE_UNAVAILABLE");
    const [a, b] = await Promise.all([first, second]);
    expect(a.text).toBe(b.text);
    expect(renderer.load).toEqual({ running: 0, queued: 0 });
    // Capacity is back once the queue drained.
    await expect(renderer.render("# again", "again")).resolves.toMatchObject({ text: "again" });
  });

  it("counts refusals through onReject", async () => {
    let rejected = 0;
    const renderer = pool({ size: 1, maxQueue: 0, onReject: () => rejected++ });
    const running = renderer.render(big, "running");
    await rejection(renderer.render("# one", "one"));
    await rejection(renderer.render("# two", "two"));
    expect(rejected).toBe(2);
    await running;
  });

  it("a caller that aborts while queued leaves the queue; the running render still finishes", async () => {
    const renderer = pool({ size: 1, maxQueue: 4 });
    const running = renderer.render(big, "running");
    const controller = new AbortController();
    const queued = renderer.render("# queued", "queued", controller.signal);
    expect(renderer.load.queued).toBe(1);
    controller.abort();
    expect((await rejection(queued)).code).toBe("BAD_USER_INPUT");
    expect(renderer.load.queued).toBe(0);
    await expect(running).resolves.toHaveProperty("text");
  });

  it("a worker that runs out of memory fails only its own render and is replaced", async () => {
    // 16 MB of heap renders a small document but not a 200k-character one.
    const renderer = pool({ size: 1, maxHeapMb: 16, youngGenerationMb: 2 });
    const failed = await rejection(renderer.render(big, "too big for 16 MB"));
    expect(failed.code).toBe("INTERNAL");
    // The replacement worker has the same small heap, so it gets a small document.
    await expect(renderer.render("# after", "after")).resolves.toMatchObject({ text: "after" });
  });

  it("close() refuses queued and new renders with SERVICE_UNAVAILABLE", async () => {
    const renderer = new RenderPool({ size: 1, maxQueue: 2 });
    const running = renderer.render(big, "running");
    const queued = renderer.render(big, "queued");
    const outcomes = [rejection(running), rejection(queued)];
    await renderer.close();
    expect((await Promise.all(outcomes)).map((e) => e.code)).toEqual(["SERVICE_UNAVAILABLE", "SERVICE_UNAVAILABLE"]);
    expect((await rejection(renderer.render("# late", "late"))).code).toBe("SERVICE_UNAVAILABLE");
  });
});

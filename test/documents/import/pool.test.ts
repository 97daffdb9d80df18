// extract() through the render pool: it runs in a worker (the event loop keeps turning), gives
// what the main-thread path gives, reports a bad upload with its own code, and shares render's
// guarantees: cancellation while waiting and while running, the deadline, fair queueing.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { GatewayError } from "../../../src/core/errors.ts";
import { DOCX_UPLOAD_LIMIT_BYTES, extractOnMainThread } from "../../../src/documents/import/index.ts";
import { RenderPool } from "../../../src/documents/pool/index.ts";
import { renderDocument } from "../../../src/documents/render/index.ts";
import { generateMarkdown } from "../../fixtures/gen-markdown.ts";
import { renderedDocx, zeroBomb } from "./docx-fixtures.ts";

let big: Uint8Array;
let small: Uint8Array;
beforeAll(async () => {
  big = (await renderDocument(generateMarkdown(200_000, 3), { title: "big" })).docx;
  small = await renderedDocx("# tiny\n");
});

const pools: RenderPool[] = [];
function pool(options: ConstructorParameters<typeof RenderPool>[0]): RenderPool {
  const created = new RenderPool({ timeoutMs: 0, queueTimeoutMs: 0, ...options });
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

describe("RenderPool.extract", () => {
  it("runs in a worker: the event loop keeps turning, and the result is the main-thread path's", async () => {
    const renderer = pool({ size: 1 });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = Date.now();
    const extracted = await renderer.extract(big);
    const elapsed = Date.now() - started;
    clearInterval(timer);
    // A main-thread extraction would block every tick until it ended.
    expect(ticks).toBeGreaterThan(elapsed / 5 / 4);
    expect(renderer.stats.completed).toBe(1);
    expect(extracted).toEqual(await extractOnMainThread(big));
  });

  it("a bad upload comes back as its own GatewayError, not INTERNAL, and the worker carries on", async () => {
    const renderer = pool({ size: 1 });
    const notZip = await rejection(renderer.extract(new TextEncoder().encode("plain text")));
    expect(notZip.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    const bomb = await rejection(renderer.extract(zeroBomb(210 * 1024 * 1024)));
    expect(bomb.code).toBe("PAYLOAD_TOO_LARGE");
    expect(bomb.details).toEqual({ limit: 200 * 1024 * 1024 });
    await expect(renderer.extract(small)).resolves.toMatchObject({ text: "tiny", markdown: "# tiny\n" });
  }, 30_000);

  it("an upload past the upload limit is refused before it reaches a worker", async () => {
    const renderer = pool({ size: 1 });
    const error = await rejection(renderer.extract(new Uint8Array(DOCX_UPLOAD_LIMIT_BYTES + 1)));
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(error.details).toEqual({ limit: DOCX_UPLOAD_LIMIT_BYTES });
    expect(renderer.load).toEqual({ running: 0, queued: 0 });
  });

  it("the caller keeps its bytes: the worker gets a copy", async () => {
    const renderer = pool({ size: 1 });
    const copy = small.slice();
    await renderer.extract(copy);
    expect(copy).toEqual(small);
  });

  it("cancelled while waiting, it leaves the queue; cancelled while running, its worker is replaced", async () => {
    const renderer = pool({ size: 1, maxQueue: 4 });
    const running = new AbortController();
    const first = renderer.extract(big, { signal: running.signal });
    const waiting = new AbortController();
    const queued = renderer.extract(small, { signal: waiting.signal });
    const after = renderer.extract(small);
    expect(renderer.load).toEqual({ running: 1, queued: 2 });
    waiting.abort();
    expect((await rejection(queued)).code).toBe("BAD_USER_INPUT");
    running.abort();
    expect((await rejection(first)).code).toBe("BAD_USER_INPUT");
    expect(renderer.stats["cancelled-queued"]).toBe(1);
    expect(renderer.stats["cancelled-running"]).toBe(1);
    await expect(after).resolves.toMatchObject({ text: "tiny" });
  });

  it("past its deadline it fails with PAYLOAD_TOO_LARGE and frees its worker", async () => {
    const renderer = pool({ size: 1, timeoutMs: 20 });
    const error = await rejection(renderer.extract(big));
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(error.details).toEqual({ reason: "render_timeout", limitMs: 20 });
    expect(error.message).toMatch(/Reading this \.docx/);
    expect(renderer.load).toEqual({ running: 0, queued: 0 });
  });

  it("extractions and renders queue fairly across principals", async () => {
    const renderer = pool({ size: 1, maxQueue: 8 });
    const finished: string[] = [];
    const track = (label: string, promise: Promise<unknown>) => promise.then(() => finished.push(label));
    const alice = [1, 2].map((i) => track(`a${i}`, renderer.extract(big, { principal: "alice" })));
    const bob = track("b", renderer.render("# tiny", "b", { principal: "bob" }));
    const carol = track("c", renderer.extract(small, { principal: "carol" }));
    await Promise.all([...alice, bob, carol]);
    // alice's second waited first, but bob and carol had had no turn yet.
    expect(finished).toEqual(["a1", "b", "c", "a2"]);
  });
});

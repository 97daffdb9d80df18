// The render pool: bounded concurrency and queue, refusal with SERVICE_UNAVAILABLE when full,
// cancellation while queued and while running, a deadline per render and per wait, fairness
// across principals, recovery from a worker that dies, recycling, and a clean close.
import { afterEach, describe, expect, it } from "vitest";
import { GatewayError } from "../../../src/core/errors.ts";
import { RenderPool } from "../../../src/documents/pool/index.ts";
import { generateMarkdown } from "../../fixtures/gen-markdown.ts";
import { mammothText } from "./docx.ts";

const big = generateMarkdown(200_000, 3);

const pools: RenderPool[] = [];
function pool(options: ConstructorParameters<typeof RenderPool>[0]): RenderPool {
  // The time bounds are off unless a test is about them: on a loaded machine a render of `big` can
  // take seconds, and ordering tests must not see a render refused for waiting.
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

describe("RenderPool", () => {
  it("renders in a worker: the .docx and the text that mammoth would extract", async () => {
    const renderer = pool({ size: 1 });
    const { docx, text } = await renderer.render("# Hello\n\n- a\n- b\n", "Greeting");
    expect(text).toBe("Hello\n\na\n\nb");
    expect(await mammothText(docx)).toBe(text);
  });

  it("workers start on demand, up to `size`; with a warm-up they start at once", async () => {
    const renderer = pool({ size: 2 });
    expect(renderer.threads).toBe(0);
    await renderer.render("# one", "one");
    expect(renderer.threads).toBe(1);
    await Promise.all([renderer.render(big, "a"), renderer.render(big, "b"), renderer.render(big, "c")]);
    expect(renderer.threads).toBe(2);
    expect(pool({ size: 2, warmup: 1 }).threads).toBe(2);
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
    const queued = renderer.render("# queued", "queued", { signal: controller.signal });
    expect(renderer.load.queued).toBe(1);
    controller.abort();
    expect((await rejection(queued)).code).toBe("BAD_USER_INPUT");
    expect(renderer.load.queued).toBe(0);
    await expect(running).resolves.toHaveProperty("text");
  });

  it("a worker that runs out of memory fails only its own render (PAYLOAD_TOO_LARGE) and is replaced", async () => {
    // 24 MB of heap (the least RENDER_WORKER_MAX_MB allows) renders a small document but not a
    // 390,000-character one.
    const renderer = pool({ size: 1, maxHeapMb: 24, youngGenerationMb: 2 });
    const failed = await rejection(renderer.render(generateMarkdown(390_000, 3), "too big for 24 MB"));
    expect(failed.code).toBe("PAYLOAD_TOO_LARGE");
    expect(failed.details).toEqual({ reason: "render_memory", limitMb: 24 });
    // Stopped by the pool's heap watch, not by V8 at its cap (ERR_WORKER_OUT_OF_MEMORY), whose path
    // can abort the whole process on Node.js 26 (src/core/heap-watch.ts).
    expect(failed.cause).toBeUndefined();
    expect(renderer.stats["out-of-memory"]).toBe(1);
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

  it("a render past its deadline fails with PAYLOAD_TOO_LARGE and frees its worker", async () => {
    const renderer = pool({ size: 1, timeoutMs: 20 });
    const failed = await rejection(renderer.render(big, "too slow"));
    expect(failed.code).toBe("PAYLOAD_TOO_LARGE");
    expect(failed.details).toEqual({ reason: "render_timeout", limitMs: 20 });
    expect(renderer.stats.timeout).toBe(1);
    expect(renderer.load).toEqual({ running: 0, queued: 0 });
  });

  it("a caller that aborts while its render runs stops it: the worker is terminated and replaced", async () => {
    const renderer = pool({ size: 1, maxQueue: 4 });
    const controller = new AbortController();
    const running = renderer.render(big, "running", { signal: controller.signal });
    const queued = renderer.render("# queued", "queued");
    expect(renderer.load).toEqual({ running: 1, queued: 1 });
    controller.abort();
    expect((await rejection(running)).code).toBe("BAD_USER_INPUT");
    expect(renderer.stats["cancelled-running"]).toBe(1);
    // The waiting render goes to the replacement worker.
    await expect(queued).resolves.toMatchObject({ text: "queued" });
    expect(renderer.stats.completed).toBe(1);
  });

  it("waiting renders are served round-robin across principals, not first come first served", async () => {
    const renderer = pool({ size: 1, maxQueue: 8 });
    const finished: string[] = [];
    const track = (label: string, promise: Promise<unknown>) => promise.then(() => finished.push(label));
    const a = [1, 2, 3].map((i) => track(`a${i}`, renderer.render(big, `a${i}`, { principal: "alice" })));
    const b = track("b", renderer.render("# tiny", "b", { principal: "bob" }));
    expect(renderer.load).toEqual({ running: 1, queued: 3 });
    await Promise.all([...a, b]);
    // alice's first render was running; bob has had no turn yet, so his comes next.
    expect(finished).toEqual(["a1", "b", "a2", "a3"]);
  });

  it("among principals waiting alike, a newcomer's small render goes before the next heavy one", async () => {
    const renderer = pool({ size: 1, maxQueue: 8 });
    const finished: string[] = [];
    const track = (label: string, promise: Promise<unknown>) => promise.then(() => finished.push(label));
    const running = track("a1", renderer.render(big, "a1", { principal: "alice" }));
    const heavy = ["bob", "carol", "dave"].map((user) => track(user, renderer.render(big, user, { principal: user })));
    const tiny = track("erin", renderer.render("# tiny", "erin", { principal: "erin" }));
    await Promise.all([running, ...heavy, tiny]);
    expect(finished).toEqual(["a1", "erin", "bob", "carol", "dave"]);
  });

  it("one principal may fill at most half of the queue; others still get in", async () => {
    const renderer = pool({ size: 1, maxQueue: 4 });
    expect(renderer.maxQueuePerPrincipal).toBe(2);
    const accepted = [0, 1, 2].map((i) => renderer.render(big, `a${i}`, { principal: "alice" }));
    const refused = await rejection(renderer.render(big, "a3", { principal: "alice" }));
    expect(refused.code).toBe("SERVICE_UNAVAILABLE");
    const bob = renderer.render("# bob", "bob", { principal: "bob" });
    await expect(bob).resolves.toMatchObject({ text: "bob" });
    await Promise.all(accepted);
  });

  it("a render that waits longer than queueTimeoutMs is refused with SERVICE_UNAVAILABLE and Retry-After", async () => {
    const renderer = pool({ size: 1, maxQueue: 4, queueTimeoutMs: 10 });
    const running = renderer.render(big, "running");
    const waited = await rejection(renderer.render("# waits", "waits"));
    expect(waited.code).toBe("SERVICE_UNAVAILABLE");
    expect(waited.retryAfter).toBeGreaterThanOrEqual(1);
    expect(waited.details).toEqual({ reason: "render_queue_timeout", limitMs: 10 });
    expect(renderer.stats["queue-timeout"]).toBe(1);
    expect(renderer.load.queued).toBe(0);
    await running;
  });

  it("a worker is recycled after maxJobsPerWorker renders, and once idle after a render that left a big heap", async () => {
    const byCount = pool({ size: 1, maxJobsPerWorker: 1 });
    await byCount.render("# one", "one");
    await expect(byCount.render("# two", "two")).resolves.toMatchObject({ text: "two" });
    expect(byCount.stats.recycled).toBe(2);

    // A worker that grew is replaced once idle, not while work keeps coming (it would start cold).
    const events: string[] = [];
    const byHeap = pool({ size: 1, maxQueue: 4, recycleHeapMb: 1, recycleIdleMs: 50, onEvent: (e) => events.push(e) });
    const first = byHeap.render("# one", "one");
    const second = byHeap.render("# two", "two");
    await Promise.all([first, second]);
    expect(byHeap.stats.recycled).toBe(0);
    await new Promise<void>((resolve) => {
      const poll = () => (events.includes("recycled") ? resolve() : setTimeout(poll, 10));
      poll();
    });
    expect(byHeap.stats.recycled).toBe(1);
    await expect(byHeap.render("# three", "three")).resolves.toMatchObject({ text: "three" });
  });

  it("a full queue takes a newcomer's render in place of the newest of the largest holder's", async () => {
    const renderer = pool({ size: 1, maxQueue: 4, maxQueuePerPrincipal: 4 });
    const alice = [0, 1, 2, 3, 4].map((i) => renderer.render(big, `a${i}`, { principal: "alice" }));
    expect(renderer.load).toEqual({ running: 1, queued: 4 });
    const bob = renderer.render("# bob", "bob", { principal: "bob" });
    // alice's newest waiting render gave bob its place.
    expect((await rejection(alice[4]!)).code).toBe("SERVICE_UNAVAILABLE");
    expect(renderer.load).toEqual({ running: 1, queued: 4 });
    // bob with one waiting and alice with three: bob's next takes alice's newest place too…
    const bob2 = renderer.render("# bob 2", "bob 2", { principal: "bob" });
    expect((await rejection(alice[3]!)).code).toBe("SERVICE_UNAVAILABLE");
    // …but with two each, a full queue refuses the newcomer as usual.
    expect((await rejection(renderer.render("# bob 3", "bob 3", { principal: "bob" }))).code).toBe("SERVICE_UNAVAILABLE");
    await expect(bob).resolves.toMatchObject({ text: "bob" });
    await expect(bob2).resolves.toMatchObject({ text: "bob 2" });
    await Promise.all(alice.slice(0, 3));
    expect(renderer.stats.rejected).toBe(3);
  });
});

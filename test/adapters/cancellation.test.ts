// The client's own abort signal (adapters/upstream/cancellation.ts) behaves as an AbortSignal does
// for what the client and undici use of one.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { describe, expect, it, vi } from "vitest";
import { Cancellation } from "../../adapters/upstream/cancellation.ts";

describe("Cancellation", () => {
  it("aborts once, with its reason, calling each listener once in the order added", () => {
    const cancellation = new Cancellation();
    const calls: string[] = [];
    const a = () => calls.push("a");
    const b = () => calls.push("b");
    cancellation.addEventListener("abort", a);
    cancellation.addEventListener("abort", b);
    cancellation.addEventListener("abort", a); // the same listener twice counts once
    expect(cancellation.listenerCount).toBe(2);
    const reason = new Error("hung up");
    cancellation.abort(reason);
    cancellation.abort(new Error("again"));
    expect(calls).toEqual(["a", "b"]);
    expect(cancellation.aborted).toBe(true);
    expect(cancellation.reason).toBe(reason);
    expect(cancellation.listenerCount).toBe(0); // let go
    cancellation.addEventListener("abort", a); // too late: never called
    expect(calls).toEqual(["a", "b"]);
  });

  it("does not call a removed listener", () => {
    const cancellation = new Cancellation();
    const removed = vi.fn();
    const kept = vi.fn();
    cancellation.addEventListener("abort", removed);
    cancellation.addEventListener("abort", kept);
    cancellation.removeEventListener("abort", removed);
    cancellation.removeEventListener("abort", () => undefined); // unknown: nothing happens
    cancellation.abort(undefined);
    expect(removed).not.toHaveBeenCalled();
    expect(kept).toHaveBeenCalledTimes(1);
  });

  it("a listener that throws does not stop the others, and its error is thrown again, not swallowed", () => {
    const rethrown: Array<() => void> = [];
    const spy = vi.spyOn(globalThis, "queueMicrotask").mockImplementation((callback) => void rethrown.push(callback));
    try {
      const cancellation = new Cancellation();
      const after = vi.fn();
      cancellation.addEventListener("abort", () => {
        throw new Error("listener failed");
      });
      cancellation.addEventListener("abort", after);
      cancellation.abort(undefined);
      expect(after).toHaveBeenCalledTimes(1);
      expect(rethrown).toHaveLength(1);
      expect(() => rethrown[0]!()).toThrow("listener failed");
    } finally {
      spy.mockRestore();
    }
  });

  it("is a signal undici takes: it cancels a request in flight with its reason, and is let go by one that ends", async () => {
    const server = createServer((req, res) => {
      if (req.url === "/answer") res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      // undici reads aborted, reason and add/removeEventListener of the signal it is given.
      const answered = new Cancellation();
      const response = await request(`${url}/answer`, { signal: answered as unknown as AbortSignal });
      expect(await response.body.text()).toBe("ok");
      // undici removes its listener when the body stream closes, a turn after its end.
      for (let turn = 0; turn < 100 && answered.listenerCount > 0; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(answered.listenerCount).toBe(0);

      const cancellation = new Cancellation();
      const pending = request(`${url}/hang`, { signal: cancellation as unknown as AbortSignal });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(cancellation.listenerCount).toBe(1);
      const reason = new Error("deadline");
      cancellation.abort(reason);
      await expect(pending).rejects.toBe(reason);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

// The spreadsheets pool's scheduler (src/spreadsheets/pool/fair-queue.ts): principals served in
// turn, each under its bound of running jobs, a workbook's jobs one at a time and in order, and a
// principal's jobs in flight bounded.
import { describe, expect, it } from "vitest";
import { FairQueue, type Queued } from "../../src/spreadsheets/pool/fair-queue.ts";

interface Job extends Queued {
  name: string;
}
const job = (principal: string, name: string, workbookId?: string): Job => ({ principal, name, workbookId });
const names = (queue: FairQueue<Job>, n: number) => Array.from({ length: n }, () => queue.take()?.name);

describe("the spreadsheets pool's fair queue", () => {
  it("serves principals in turn, whatever order their jobs came in", () => {
    const queue = new FairQueue<Job>({ perPrincipal: 10, queuePerPrincipal: 10, total: 100 });
    for (const name of ["a1", "a2", "a3"]) queue.add(job("alice", name));
    queue.add(job("bob", "b1"));
    queue.add(job("carol", "c1"));
    queue.add(job("bob", "b2"));
    expect(names(queue, 7)).toEqual(["a1", "b1", "c1", "a2", "b2", "a3", undefined]);
  });

  it("skips a principal running its bound until one of its jobs is done", () => {
    const queue = new FairQueue<Job>({ perPrincipal: 1, queuePerPrincipal: 10, total: 100 });
    queue.add(job("alice", "a1"));
    queue.add(job("alice", "a2"));
    const first = queue.take()!;
    expect(first.name).toBe("a1");
    expect(queue.take()).toBeUndefined();
    // Bob's job, queued after Alice's second, runs before it: Alice is at her bound.
    queue.add(job("bob", "b1"));
    expect(queue.take()?.name).toBe("b1");
    queue.done(first);
    expect(queue.take()?.name).toBe("a2");
  });

  it("runs a workbook's jobs one at a time and in order; the principal's other workbooks go meanwhile", () => {
    const queue = new FairQueue<Job>({ perPrincipal: 4, queuePerPrincipal: 10, total: 100 });
    queue.add(job("alice", "w1-first", "wb_1"));
    queue.add(job("alice", "w1-second", "wb_1"));
    queue.add(job("alice", "w2", "wb_2"));
    const first = queue.take()!;
    expect(first.name).toBe("w1-first");
    expect(queue.take()?.name).toBe("w2");
    expect(queue.take()).toBeUndefined();
    queue.done(first);
    expect(queue.take()?.name).toBe("w1-second");
  });

  it("refuses a principal's job past its running and waiting bounds, and any job past the total", () => {
    const queue = new FairQueue<Job>({ perPrincipal: 1, queuePerPrincipal: 1, total: 3 });
    expect(queue.add(job("alice", "a1"))).toBeUndefined();
    queue.take();
    expect(queue.add(job("alice", "a2"))).toBeUndefined();
    expect(queue.add(job("alice", "a3"))).toBe("principal");
    // Others still get in, up to the total of waiting jobs.
    expect(queue.add(job("bob", "b1"))).toBeUndefined();
    expect(queue.add(job("carol", "c1"))).toBeUndefined();
    expect(queue.add(job("dave", "d1"))).toBe("total");
    expect(queue.waiting).toBe(3);
  });

  it("a job taken out while waiting frees its place, and the turns skip an emptied principal", () => {
    const queue = new FairQueue<Job>({ perPrincipal: 1, queuePerPrincipal: 1, total: 10 });
    const a1 = job("alice", "a1");
    queue.add(a1);
    queue.add(job("bob", "b1"));
    expect(queue.remove(a1)).toBe(true);
    expect(queue.remove(a1)).toBe(false);
    expect(queue.take()?.name).toBe("b1");
    expect(queue.take()).toBeUndefined();
    expect(queue.drain()).toEqual([]);
  });
});

// Cancellation: each upstream call listens on a signal that aborts when the call must stop — the
// caller hangs up, or the request's deadline passes — and lets it go when the call ends.
//
// The signals a call could listen on directly live as long as its incoming request: the caller's
// signal, the request's deadline signal. A GraphQL query or a tRPC batch makes many upstream calls
// under one of them, and every attempt, retry sleep and hold would add an `abort` listener to it:
// a batch of 2,700 calls in flight, 2,700 listeners on one signal (issue 23 saw Node's
// MaxListenersExceededWarning for one signal with thousands). Here a source signal gets one
// listener, whatever the number of calls, and fans its abort out to the calls in flight; a call
// that ends leaves the set. No listener is left behind and no listener limit needs raising.
import { Cancellation, type CancelSignal } from "./cancellation.ts";
import type { CallContext, Policy } from "./policy.ts";

/** A call's own signal, linked to a longer-lived source; release() when the call no longer needs it. */
export interface Link {
  readonly signal: CancelSignal;
  release(): void;
}

/** Calls in flight under one source signal, and the source's one listener. */
class Fanout {
  private readonly members = new Set<Cancellation>();

  constructor(private readonly source: CancelSignal) {
    source.addEventListener(
      "abort",
      () => {
        for (const member of this.members) member.abort(source.reason);
        this.members.clear();
      },
      { once: true },
    );
  }

  link(): Link {
    const link = new Cancellation();
    if (this.source.aborted) link.abort(this.source.reason);
    else this.members.add(link);
    return { signal: link, release: () => this.members.delete(link) };
  }

  get size(): number {
    return this.members.size;
  }
}

/** One fan-out per source signal, kept only as long as the signal is (a WeakMap). */
export class Linker {
  private readonly fanouts = new WeakMap<CancelSignal, Fanout>();

  /** A signal that aborts when `source` does, with its reason. */
  link(source: CancelSignal): Link {
    let fanout = this.fanouts.get(source);
    if (!fanout) {
      fanout = new Fanout(source);
      this.fanouts.set(source, fanout);
    }
    return fanout.link();
  }

  /** Calls in flight linked to `source` (for tests). */
  inFlight(source: CancelSignal): number {
    return this.fanouts.get(source)?.size ?? 0;
  }
}

/**
 * The cancel policy: the call's `signal` (deadline or hang-up) for waits and, as `sendSignal`, for
 * undici. A download's body streams past the deadline (its headers timeout covers it up to its
 * headers), so undici gets the caller's own signal for it: one download per REST request.
 *
 * The request's only call in flight (most requests make one) takes its deadline's signal as it
 * is: undici and a wait each add a listener to it and remove it when done, so it carries a few at
 * most, and the call costs no link of its own (a link was ~9 µs of a ~32 µs call through the chain,
 * npm run bench:upstream-chain, when links were AbortControllers). Calls made while another is in
 * flight are linked.
 */
export function cancelPolicy(linker: Linker = new Linker()): Policy {
  return {
    async execute<T>(ctx: CallContext, next: () => Promise<T>): Promise<T> {
      if (ctx.deadline?.inFlight === 1) {
        ctx.signal = ctx.deadline.signal;
        ctx.sendSignal = ctx.scope === "headers" ? ctx.caller : ctx.signal;
        return next();
      }
      const source = ctx.deadline?.signal ?? ctx.caller;
      const link = source ? linker.link(source) : undefined;
      ctx.signal = link?.signal;
      ctx.sendSignal = ctx.scope === "headers" ? ctx.caller : ctx.signal;
      try {
        return await next();
      } finally {
        link?.release();
      }
    },
  };
}

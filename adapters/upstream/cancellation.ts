// The client's own abort signals: each request's deadline signal (timeout.ts) and the links of calls
// made beside another (cancel.ts). Node's AbortController is an EventTarget with its own
// bookkeeping, costly to make and to collect: under bench:gateway's load, one per request was
// ~10% of a GraphQL or tRPC call's gateway CPU (docs/performance.md). What undici, the waits and the fan-out read of a signal is four
// members (aborted, reason, adding and removing an abort listener), and that is all this keeps.

/** What the client needs of an abort signal: an AbortSignal is one, so is a Cancellation. */
export interface CancelSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/**
 * A signal and its controller in one. As an AbortSignal's: abort() takes effect once, calls each
 * listener once, in the order added (a listener added twice counts once), and a listener added
 * after it is never called.
 */
export class Cancellation implements CancelSignal {
  aborted = false;
  reason: unknown = undefined;
  private listeners: Array<() => void> | undefined;

  addEventListener(type: "abort", listener: () => void): void {
    if (type !== "abort" || this.aborted) return;
    const listeners = (this.listeners ??= []);
    if (!listeners.includes(listener)) listeners.push(listener);
  }

  removeEventListener(type: "abort", listener: () => void): void {
    const listeners = this.listeners;
    if (type !== "abort" || !listeners) return;
    const at = listeners.indexOf(listener);
    if (at >= 0) listeners.splice(at, 1);
  }

  /** Listeners waiting for the abort (the tests' listener census reads it). */
  get listenerCount(): number {
    return this.listeners?.length ?? 0;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = undefined;
    if (!listeners) return;
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        // As an EventTarget does: the other listeners still run; the error is not swallowed.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}

// A census of `abort` listeners: how many each AbortSignal carries at once, at most, while a test
// runs — including signals a test cannot reach (a request's deadline signal inside the client).
// It wraps EventTarget's add/removeEventListener for the test's duration and counts per signal,
// and reads the client's own signals (adapters/upstream/cancellation.ts) after each addition.
import { Cancellation } from "../../adapters/upstream/cancellation.ts";

export interface ListenerCensus {
  /** The most `abort` listeners any one AbortSignal (or Cancellation) carried at once since start. */
  readonly max: number;
  /** MaxListenersExceededWarnings Node emitted since start. */
  readonly warnings: string[];
  stop(): void;
}

export function startListenerCensus(): ListenerCensus {
  const add = EventTarget.prototype.addEventListener;
  const remove = EventTarget.prototype.removeEventListener;
  const addToCancellation = Cancellation.prototype.addEventListener;
  const live = new WeakMap<EventTarget, Set<unknown>>();
  const warnings: string[] = [];
  let max = 0;
  const onWarning = (warning: Error) => {
    if (warning.name === "MaxListenersExceededWarning") warnings.push(warning.message);
  };
  process.on("warning", onWarning);

  EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, listener: unknown, options?: unknown) {
    if (type === "abort" && listener && this instanceof AbortSignal && !this.aborted) {
      let set = live.get(this);
      if (!set) live.set(this, (set = new Set()));
      set.add(listener);
      max = Math.max(max, set.size);
    }
    return add.call(this, type, listener as EventListener, options as AddEventListenerOptions);
  };
  EventTarget.prototype.removeEventListener = function (this: EventTarget, type: string, listener: unknown, options?: unknown) {
    if (type === "abort") live.get(this)?.delete(listener);
    return remove.call(this, type, listener as EventListener, options as EventListenerOptions);
  };

  Cancellation.prototype.addEventListener = function (this: Cancellation, type: "abort", listener: () => void) {
    addToCancellation.call(this, type, listener);
    max = Math.max(max, this.listenerCount);
  };

  return {
    get max() {
      return max;
    },
    warnings,
    stop() {
      EventTarget.prototype.addEventListener = add;
      EventTarget.prototype.removeEventListener = remove;
      Cancellation.prototype.addEventListener = addToCancellation;
      process.off("warning", onWarning);
    },
  };
}

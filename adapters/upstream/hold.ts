// Admission through a circuit breaker, with a short wait instead of a refusal near the probe.
// Off by default (UPSTREAM_BREAKER_HOLD_MS=0): during an outage it made callers wait for their
// refusal (issue 23); recovery comes from the breaker's frequent, jittered probes instead.
//
// An open circuit refuses calls at once. But a call that arrives in the last `holdMs` of the
// open interval would be refused only to miss, by a few milliseconds, the probe that finds the
// upstream healthy again: with a short interval, that is most of the calls of a recovery's first
// moments. Such a call waits instead — for the interval's end (where it may itself be the
// probe), then for the probes' verdict, at most `holdMs` more — and goes ahead if the circuit
// closed, or is refused if it re-opened. Calls earlier in the interval are still refused at
// once, so a dead upstream keeps answering fast, and waiting calls add no upstream traffic:
// the probes are the same one call per interval (breaker.ts).
import type { CircuitBreaker, Ticket } from "./breaker.ts";
import type { CancelSignal } from "./cancellation.ts";

/** What admit() resolves with: a ticket, or null (refused: the circuit is open). */
export type Admission = Ticket | null;

/**
 * A ticket from `breaker`, waiting up to `holdMs` for a half-open circuit's probe when the open
 * interval ends within `holdMs`. Rejects with the signal's reason when it aborts while waiting.
 */
export async function admit(breaker: CircuitBreaker, holdMs: number, signal?: CancelSignal): Promise<Admission> {
  const ticket = breaker.tryAcquire();
  if (ticket || holdMs <= 0) return ticket;
  const untilHalfOpen = breaker.msUntilHalfOpen;
  if (untilHalfOpen > holdMs) return null;
  const openings = breaker.openings;
  const giveUpAt = performance.now() + untilHalfOpen + holdMs;
  for (;;) {
    // Woken by the interval's end, a change of the breaker (closed, re-opened, more probes
    // allowed), giving up, or the caller going away.
    const wait = breaker.msUntilHalfOpen > 0 ? breaker.msUntilHalfOpen : giveUpAt - performance.now();
    if (wait <= 0) return breaker.tryAcquire();
    await wake(breaker, wait, signal);
    const next = breaker.tryAcquire();
    if (next) return next;
    if (breaker.openings !== openings) return null; // the probes failed: refused, as it would have been
    if (performance.now() >= giveUpAt) return null;
  }
}

function wake(breaker: CircuitBreaker, ms: number, signal: CancelSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const done = () => {
      clearTimeout(timer);
      breaker.offChange(done);
      signal?.removeEventListener("abort", onAbort);
      resolve();
    };
    const onAbort = () => {
      clearTimeout(timer);
      breaker.offChange(done);
      reject(signal?.reason);
    };
    const timer = setTimeout(done, Math.ceil(ms));
    breaker.onChange(done);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

// The circuit breaker policy: each attempt goes through its origin's breaker (breaker.ts) — it
// takes a ticket, or is refused at once with UPSTREAM_UNAVAILABLE while the circuit is open —
// and reports what its end says about the upstream: a failure, a success, or nothing (neutral).
// A first attempt may wait for a probe when UPSTREAM_BREAKER_HOLD_MS is set (hold.ts, off by
// default); a retry never waits.
import { AdapterError } from "../errors.ts";
import type { CircuitBreaker, Ticket } from "./breaker.ts";
import { AttemptFailed, transportFailure, type Failure } from "./errors.ts";
import { admit } from "./hold.ts";
import type { CallContext, Policy } from "./policy.ts";

/** The answer of an open circuit: refused, not attempted, nothing said about the upstream. */
export function circuitOpenFailure(breaker: CircuitBreaker): Failure {
  return {
    error: new AdapterError("UPSTREAM_UNAVAILABLE", "The upstream is unavailable (circuit open after too many recent failures)", {
      retryAfter: Math.max(1, breaker.retryInSeconds),
    }),
    outcome: "circuit_open",
    verdict: "neutral",
    retryable: false,
  };
}

function settle(breaker: CircuitBreaker, ticket: Ticket, failure: Failure): void {
  if (failure.verdict === "failure") breaker.failure(ticket, failure.outcome === "timeout");
  else if (failure.verdict === "success") breaker.success(ticket);
  else breaker.release(ticket);
}

/** `timeoutMs` names the timeout in the classification of a caller that goes away while held. */
export function circuitBreakerPolicy(breakerFor: (origin: string) => CircuitBreaker, timeoutMs: number): Policy {
  async function acquire(breaker: CircuitBreaker, ctx: CallContext): Promise<Ticket | null> {
    const ticket = breaker.tryAcquire();
    if (ticket || ctx.attempt > 0 || breaker.settings.holdMs <= 0) return ticket;
    try {
      return await admit(breaker, breaker.settings.holdMs, ctx.signal);
    } catch (reason) {
      throw transportFailure(reason, ctx.signal, timeoutMs).error; // the caller went away while held
    }
  }
  return {
    async execute<T>(ctx: CallContext, next: () => Promise<T>): Promise<T> {
      const breaker = breakerFor(ctx.target.base.origin);
      const ticket = await acquire(breaker, ctx);
      if (!ticket) throw new AttemptFailed(circuitOpenFailure(breaker));
      let value: T;
      try {
        value = await next();
      } catch (error) {
        settle(
          breaker,
          ticket,
          error instanceof AttemptFailed ? error.failure : transportFailure(error, ctx.signal, ctx.timeoutMs, ctx.deadlineBoundMs),
        );
        throw error;
      }
      breaker.success(ticket);
      return value;
    },
  };
}

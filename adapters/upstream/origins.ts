// What the client keeps per upstream origin (the API base, each tenant origin): its circuit
// breaker and its retry budget, created on first use, with the circuit-state gauge kept current.
import { CircuitBreaker, circuitStateValue, type BreakerSettings, type CircuitState } from "./breaker.ts";
import type { UpstreamMetrics } from "./metrics.ts";
import { RetryBudget, type RetryBudgetSettings } from "./retry-budget.ts";

export interface OriginOptions {
  breaker?: Partial<BreakerSettings> | undefined;
  retryBudget?: Partial<RetryBudgetSettings> | undefined;
  gauge?: UpstreamMetrics["upstreamCircuitState"];
  now: () => number;
  /** The breaker's jitter source. */
  random: () => number;
}

export class Origins {
  private readonly map = new Map<string, { breaker: CircuitBreaker; budget: RetryBudget }>();

  constructor(private readonly options: OriginOptions) {}

  private get(origin: string): { breaker: CircuitBreaker; budget: RetryBudget } {
    let state = this.map.get(origin);
    if (!state) {
      const { gauge, now, random } = this.options;
      state = {
        breaker: new CircuitBreaker({
          ...this.options.breaker,
          now,
          random,
          onStateChange: (s) => gauge?.set({ origin }, circuitStateValue[s]),
        }),
        budget: new RetryBudget(this.options.retryBudget, now),
      };
      gauge?.set({ origin }, 0);
      this.map.set(origin, state);
    }
    return state;
  }

  breaker(origin: string): CircuitBreaker {
    return this.get(origin).breaker;
  }

  budget(origin: string): RetryBudget {
    return this.get(origin).budget;
  }

  /** The circuit's state as a call would meet it now; "closed" for an origin not called yet. */
  circuit(origin: string): CircuitState {
    return this.map.get(origin)?.breaker.current ?? "closed";
  }
}

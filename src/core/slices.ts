// Work on the event loop in slices: a long computation written as a generator that yields at
// points where it may pause (a row read, a line written) runs either at once (finish) or a few
// milliseconds at a time with the event loop turning in between (inSlices), so that /healthz and
// other requests are answered while a 100,000-cell answer is made (issue 37 F5).
import { setImmediate as turn } from "node:timers/promises";

/** How long a slice runs before the event loop gets a turn, ms. */
export const SLICE_MS = 5;

/** Runs a generator to its end at once; its return value. */
export function finish<T>(steps: Generator<unknown, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Runs a generator to its end, letting the event loop turn whenever a slice of `sliceMs` has passed. */
export async function inSlices<T>(steps: Generator<unknown, T>, sliceMs = SLICE_MS): Promise<T> {
  let until = performance.now() + sliceMs;
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() >= until) {
      await turn();
      until = performance.now() + sliceMs;
    }
  }
}

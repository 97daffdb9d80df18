// Two counters over a sliding time window, kept in fixed buckets (e.g. 10 s in 1 s buckets):
// what the circuit breaker (calls, failures) and the retry budget (requests, retries) measure.
// Adding and reading are O(buckets) at most and allocate nothing.

export class SlidingWindow {
  private readonly first: Float64Array;
  private readonly second: Float64Array;
  /** The bucket number (time / bucketMs) each slot currently holds. */
  private readonly epochs: Float64Array;
  private readonly bucketMs: number;

  constructor(
    readonly windowMs: number,
    readonly buckets: number,
    private readonly now: () => number,
  ) {
    this.buckets = Math.max(1, Math.floor(buckets));
    this.windowMs = Math.max(1, windowMs);
    this.bucketMs = this.windowMs / this.buckets;
    this.first = new Float64Array(this.buckets);
    this.second = new Float64Array(this.buckets);
    this.epochs = new Float64Array(this.buckets).fill(Number.NEGATIVE_INFINITY);
  }

  private slot(): number {
    const epoch = Math.floor(this.now() / this.bucketMs);
    const slot = epoch % this.buckets;
    if (this.epochs[slot] !== epoch) {
      this.epochs[slot] = epoch;
      this.first[slot] = 0;
      this.second[slot] = 0;
    }
    return slot;
  }

  /** Counts into the first counter, and into the second when `both`. */
  add(both: boolean): void {
    const slot = this.slot();
    (this.first[slot] as number) += 1;
    if (both) (this.second[slot] as number) += 1;
  }

  /** Counts into the second counter only. */
  addSecond(): void {
    (this.second[this.slot()] as number) += 1;
  }

  /** [first, second] over the buckets still inside the window, or over its latest `buckets` only. */
  totals(buckets = this.buckets): [number, number] {
    const oldest = Math.floor(this.now() / this.bucketMs) - Math.min(buckets, this.buckets);
    let a = 0;
    let b = 0;
    for (let i = 0; i < this.buckets; i++) {
      if ((this.epochs[i] as number) > oldest) {
        a += this.first[i] as number;
        b += this.second[i] as number;
      }
    }
    return [a, b];
  }

  reset(): void {
    this.epochs.fill(Number.NEGATIVE_INFINITY);
  }
}

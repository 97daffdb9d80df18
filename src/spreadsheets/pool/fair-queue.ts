// Which spreadsheet job runs next, so that one principal cannot hold the engine from the others
// (issue 37 F1: another user's one-cell write waited 23–34 s behind one user's evaluate). Each
// principal has a queue of its own; a free worker takes the first job of the next principal in turn
// (round robin), skipping a principal already running its bound of jobs. A workbook's jobs run one
// at a time and in order (a change works on the model in place), so a job whose workbook has one
// running waits and its principal's later jobs for other workbooks may go first. A principal's jobs
// in flight (running and waiting) are bounded, and so are all the jobs waiting.

export interface Queued {
  /** Whose job it is: the owner, or `share:<owner>` for a share link's reader. */
  principal: string;
  /** The stored workbook it works on, if any (a create or an import has none yet). */
  workbookId: string | undefined;
}

export interface FairBounds {
  /** Jobs of one principal running at once. */
  perPrincipal: number;
  /** Jobs of one principal waiting beyond those it may run. */
  queuePerPrincipal: number;
  /** Jobs waiting, every principal together. */
  total: number;
}

/** Why a job was not queued: its principal has its bound of jobs in flight, or the pool is full. */
export type Refusal = "principal" | "total";

export class FairQueue<T extends Queued> {
  /** Principals with waiting jobs, in the order they will be served. */
  private readonly turns: string[] = [];
  private readonly queues = new Map<string, T[]>();
  private readonly running = new Map<string, number>();
  private readonly busy = new Set<string>();
  private count = 0;

  constructor(private readonly bounds: FairBounds) {}

  /** Jobs waiting. */
  get waiting(): number {
    return this.count;
  }

  /** Jobs of `principal` running now. */
  runningOf(principal: string): number {
    return this.running.get(principal) ?? 0;
  }

  /** Queues a job, or says why not. */
  add(item: T): Refusal | undefined {
    const queue = this.queues.get(item.principal) ?? [];
    if (this.runningOf(item.principal) + queue.length >= this.bounds.perPrincipal + this.bounds.queuePerPrincipal) return "principal";
    if (this.count >= this.bounds.total) return "total";
    if (queue.length === 0) {
      this.queues.set(item.principal, queue);
      this.turns.push(item.principal);
    }
    queue.push(item);
    this.count++;
    return undefined;
  }

  /** Takes a waiting job out (its caller gave up); false when it is not waiting. */
  remove(item: T): boolean {
    const queue = this.queues.get(item.principal);
    const index = queue ? queue.indexOf(item) : -1;
    if (!queue || index < 0) return false;
    queue.splice(index, 1);
    this.count--;
    if (queue.length === 0) this.drop(item.principal);
    return true;
  }

  /**
   * The next job to run, marked running: the first runnable job of the first principal in turn
   * under its bound; that principal then goes to the back of the turns.
   */
  take(): T | undefined {
    for (let turn = 0; turn < this.turns.length; turn++) {
      const principal = this.turns[turn] as string;
      if (this.runningOf(principal) >= this.bounds.perPrincipal) continue;
      const queue = this.queues.get(principal) as T[];
      const index = queue.findIndex((item) => item.workbookId === undefined || !this.busy.has(item.workbookId));
      if (index < 0) continue;
      const [item] = queue.splice(index, 1) as [T];
      this.count--;
      this.turns.splice(turn, 1);
      if (queue.length === 0) this.queues.delete(principal);
      else this.turns.push(principal);
      this.running.set(principal, this.runningOf(principal) + 1);
      if (item.workbookId !== undefined) this.busy.add(item.workbookId);
      return item;
    }
    return undefined;
  }

  /** A job taken by take() finished (or failed): its principal and workbook are free for the next. */
  done(item: T): void {
    const running = this.runningOf(item.principal) - 1;
    if (running > 0) this.running.set(item.principal, running);
    else this.running.delete(item.principal);
    if (item.workbookId !== undefined) this.busy.delete(item.workbookId);
  }

  /** Every waiting job, taken out (the pool is closing). */
  drain(): T[] {
    const all = this.turns.flatMap((principal) => this.queues.get(principal) ?? []);
    this.turns.length = 0;
    this.queues.clear();
    this.count = 0;
    return all;
  }

  private drop(principal: string): void {
    this.queues.delete(principal);
    const turn = this.turns.indexOf(principal);
    if (turn >= 0) this.turns.splice(turn, 1);
  }
}

// Issue 37 F1: one user's long evaluate held the engine and another user's one-cell write on their
// own workbook waited 23–34 s behind it. With the gateway's default workers, that other user's
// write and read are answered while the first user's long jobs still run; a user past their bound
// of jobs in flight is told so (429 RATE_LIMITED with Retry-After) and nobody else is. Both assert
// the order in which things are answered, not times: speed is measured by npm run bench:trust.
import { afterEach, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { call, createSmall, type Answer, type Caller } from "../security/trust-attacks.ts";

/**
 * A legitimate long evaluate: 9 million small additions (0.6–3 s on a loaded 2-core machine), no
 * array larger than 3,000 cells, well within the step budget. The time budget is raised so that a
 * machine busy with other work does not cut it short.
 */
const LONG = "=REDUCE(0,SEQUENCE(3000),LAMBDA(a,i,a+REDUCE(0,SEQUENCE(3000),LAMBDA(b,j,b+j))))";
const LONG_VALUE = 3000 * ((3000 * 3001) / 2);
const BUDGET = { SHEETS_WRITE_BUDGET_MS: "120000" };

let gateway: TestGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

async function callers(env: Record<string, string> = {}): Promise<{ attacker: Caller; victim: Caller }> {
  gateway = await startTestGateway({ ...BUDGET, ...env });
  const scopes = ["sheets:read", "sheets:write"];
  return {
    attacker: { base: gateway.url, auth: `Bearer ${await gateway.key({ user: "attacker", scopes })}` },
    victim: { base: gateway.url, auth: `Bearer ${await gateway.key({ user: "victim", scopes })}` },
  };
}

/** An answer with the time it arrived. */
const timed = (answer: Promise<Answer>) => answer.then((a) => ({ ...a, at: performance.now() }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("one user's long spreadsheet jobs and another user's", () => {
  it("another user's one-cell write and read are answered while one user's long evaluates run", { timeout: 120_000 }, async () => {
    const { attacker, victim } = await callers();
    const [a1, a2, mine] = await Promise.all([createSmall(attacker, "a1"), createSmall(attacker, "a2"), createSmall(victim)]);
    // Each worker has loaded its first model; the attacker's jobs go first.
    const started = performance.now();
    const attacks = [a1.id, a2.id].map((id) => timed(call(attacker, "POST", `/api/v1/spreadsheets/${id}/evaluate`, { formula: LONG })));
    await sleep(150);
    const write = await timed(call(victim, "PUT", `/api/v1/spreadsheets/${mine.id}/values/B2`, { values: [[42]] }));
    const read = await timed(call(victim, "GET", `/api/v1/spreadsheets/${mine.id}/values/A1:E10`));
    const answers = await Promise.all(attacks);
    const firstAttack = Math.min(...answers.map((a) => a.at));
    console.log(
      `[fairness] attacker's evaluates answered at ${answers.map((a) => (a.at - started).toFixed(0)).join(", ")} ms; ` +
        `the other user's write took ${write.ms.toFixed(0)} ms, read ${read.ms.toFixed(0)} ms`,
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text)).toEqual({ value: LONG_VALUE });
    }
    expect(write.status).toBe(200);
    expect(JSON.parse(read.text).values[1][1]).toBe(42);
    // Served in turn: the other user's write and read are done before either long job of the first.
    expect(write.at).toBeLessThan(firstAttack);
    expect(read.at).toBeLessThan(firstAttack);
    expect(write.ms + read.ms).toBeLessThan((firstAttack - started) / 2);
  });

  it("a user past their jobs in flight is refused with RATE_LIMITED; another user's job still runs", { timeout: 120_000 }, async () => {
    const { attacker, victim } = await callers({ SHEETS_WORKERS: "2", SHEETS_JOBS_PER_PRINCIPAL: "1", SHEETS_QUEUE_PER_PRINCIPAL: "1" });
    const [mine, theirs] = await Promise.all([createSmall(attacker, "a1"), createSmall(victim)]);
    // One runs, one waits, the third is one too many; the other user, meanwhile, writes.
    const [attacks, write] = await Promise.all([
      Promise.all([0, 1, 2].map(() => timed(call(attacker, "POST", `/api/v1/spreadsheets/${mine.id}/evaluate`, { formula: LONG })))),
      sleep(150).then(() => timed(call(victim, "PUT", `/api/v1/spreadsheets/${theirs.id}/values/A1`, { values: [[1]] }))),
    ]);
    const refused = attacks.filter((a) => a.status === 429);
    expect(attacks.filter((a) => a.status === 200)).toHaveLength(2);
    expect(refused).toHaveLength(1);
    const body = JSON.parse(refused[0]!.text) as { error: { code: string; details: { limit: string } } };
    expect(body.error.code).toBe("RATE_LIMITED");
    expect(body.error.details.limit).toBe("SHEETS_JOBS_PER_PRINCIPAL");
    expect(refused[0]!.retryAfter).toBe("1");
    // The bound is the attacker's alone: the other user's write went before the attacker's second job.
    expect(write.status).toBe(200);
    expect(write.at).toBeLessThan(Math.max(...attacks.map((a) => a.at)));
    // And once the attacker's jobs are done, the attacker's next one runs.
    expect((await call(attacker, "POST", `/api/v1/spreadsheets/${mine.id}/evaluate`, { formula: "=1+1" })).status).toBe(200);
  });
});

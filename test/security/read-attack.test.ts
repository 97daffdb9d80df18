// Issue 23 finding 1: one GraphQL request froze the gateway (4.1 s on /healthz, 810 MB RSS; four
// at once 13.2 s, 1.5 GB). The gateway runs as its own process (as `npm start` does) so that its
// RSS can be read; the 111-version, 390,000-character document is built through the API. The
// attack is refused before anything runs (its cost, ./cost.ts, is over the limit), and one alias
// of it, within the cost limit, is answered within the read budget; meanwhile /healthz, sampled
// every 50 ms, answers within 250 ms and the gateway grows by at most 300 MB.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { costModel } from "../../src/graphql/cost.ts";
import { startGatewayProcess, type GatewayProcess } from "../helpers/process.ts";
import { signAccessToken } from "../products/harness.ts";
import { attackQuery, buildLivingDocument, DOCUMENT_CHARS, DOCUMENT_VERSIONS, underAttack, type Sampled } from "./read-attack.ts";

const HEALTH_BOUND_MS = 250;
/**
 * The bounds are the targets, measured from outside on a shared 2-core machine where an idle
 * gateway's /healthz has been seen at 127 ms under load: a scenario gets three runs to meet them all.
 * The attack as it was (4.1 s, +810 MB) fails every run.
 */
const RETRIES = { retry: 2 };
const RSS_GROWTH_BOUND_MB = 300;
const secret = "read-attack-suite-secret-of-at-least-32-chars";

let gateway: GatewayProcess;
let dataDir: string;
let auth: string;
let id: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "wg-read-attack-"));
  gateway = await startGatewayProcess({ DATA_DIR: dataDir, JWT_SECRET: secret, RENDER_WORKERS: "1" });
  // The attacker: any credential with docs:read on its own documents.
  auth = `Bearer ${await signAccessToken({ sub: "attacker" }, { secret, exp: "1h" })}`;
  const built = await buildLivingDocument(gateway.url, auth);
  expect(built.characters).toBeGreaterThanOrEqual(DOCUMENT_CHARS - 1);
  id = built.id;
}, 300_000);
afterAll(async () => {
  await gateway?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const report = (label: string, s: Sampled) =>
  console.log(
    `[read-attack] ${label}: answered in ${s.elapsedMs.toFixed(0)} ms; /healthz max ${s.healthMaxMs.toFixed(0)} ms over ${s.healthSamples} samples; ` +
      `RSS ${s.rssBeforeMb.toFixed(0)} → max ${s.rssMaxMb.toFixed(0)} MB (+${(s.rssMaxMb - s.rssBeforeMb).toFixed(0)})`,
  );

describe("issue 23's GraphQL attack on a living document", () => {
  it.each([1, 4])("six aliases, %i at once: refused before anything is read, the gateway stays responsive", RETRIES, async (concurrent) => {
    const sampled = await underAttack(gateway.url, gateway.child.pid!, auth, attackQuery(id, 6), concurrent);
    report(`6 aliases x ${concurrent}`, sampled);
    for (const answer of sampled.answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.data).toBeUndefined();
      expect(answer.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
      expect(Number(answer.body.errors?.[0]?.extensions?.details?.["cost"])).toBeGreaterThan(costModel.MAX_COST);
    }
    expect(sampled.healthMaxMs).toBeLessThanOrEqual(HEALTH_BOUND_MS);
    expect(sampled.rssMaxMb - sampled.rssBeforeMb).toBeLessThanOrEqual(RSS_GROWTH_BOUND_MB);
  });

  it.each([1, 4])(
    "one alias (within the cost limit), %i at once: answered within the read budget, the gateway stays responsive",
    RETRIES,
    async (concurrent) => {
      const sampled = await underAttack(gateway.url, gateway.child.pid!, auth, attackQuery(id, 1), concurrent);
      report(`1 alias x ${concurrent}`, sampled);
      for (const answer of sampled.answers) {
        expect(answer.status).toBe(200);
        // Every text read is served, or refused by the read budget: nothing else.
        const codes = new Set((answer.body.errors ?? []).map((e) => e.extensions?.code));
        expect(
          [...codes].every((code) => code === "PAYLOAD_TOO_LARGE"),
          JSON.stringify([...codes]),
        ).toBe(true);
        const data = answer.body.data as { a0: { versions: { edges: unknown[] } } | null };
        if (codes.size === 0) expect(data.a0?.versions.edges).toHaveLength(Math.min(100, DOCUMENT_VERSIONS));
      }
      expect(sampled.healthMaxMs).toBeLessThanOrEqual(HEALTH_BOUND_MS);
      expect(sampled.rssMaxMb - sampled.rssBeforeMb).toBeLessThanOrEqual(RSS_GROWTH_BOUND_MB);
    },
  );
});

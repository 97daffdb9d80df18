// npm run bench:upstream-chain — what the upstream client's policy chain (adapters/upstream/client.ts:
// deadline, cancel, retry budget, retry, metrics, breaker, attempt timeout, classify) costs per call,
// apart from the network. Calls go to undici's MockAgent, one at a time, each under a fresh caller
// signal as an incoming request has, and CPU per call (process.cpuUsage) is compared with the same
// attempt made by the chain's last step alone (the transport: the undici request, the capped read,
// JSON parse and zod validation, with the caller's signal): the difference is the chain.
// Rounds alternate the two; the median round is reported.
import { MockAgent } from "undici";
import { z } from "zod";
import { parseBase } from "../adapters/upstream/base.ts";
import { createUpstreamClient } from "../adapters/upstream/client.ts";
import type { CallContext } from "../adapters/upstream/policy.ts";
import { Transport } from "../adapters/upstream/transport.ts";
import { createMetrics } from "../src/observability/metrics.ts";

const CALLS = Number(process.env["BENCH_CALLS"] ?? 20_000);
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 5);

const agent = new MockAgent({ connections: 1 });
agent.disableNetConnect();
agent
  .get("http://upstream.test")
  .intercept({ path: /.*/, method: "GET" })
  .reply(200, '{"ok":true}', { headers: { "content-type": "application/json" } })
  .persist();
const client = createUpstreamClient({ dispatcher: agent, metrics: createMetrics() });
const base = parseBase("http://upstream.test", "API_URL");
const schema = z.object({ ok: z.boolean() });
const target = { product: "mail" as const, base, path: "/x" };

const throughChain = async () => {
  const caller = new AbortController(); // one per incoming request
  await client.json({ requestId: "r", accessToken: "t", signal: caller.signal }, { ...target, method: "GET", schema });
};
// The client's defaults (client.ts), so that the attempt is the one the chain ends with.
const transport = new Transport({
  timeoutMs: 10_000,
  connections: 64,
  keepAliveTimeoutMs: 4_000,
  maxResponseBytes: 10 * 1024 * 1024,
  userAgent: "workspace-gateway",
  dispatcher: agent,
});
const direct = async () => {
  const caller = new AbortController();
  const ctx: CallContext = { target, idempotent: true, scope: "whole", caller: caller.signal, attempt: 0, timeoutMs: 10_000 };
  ctx.signal = ctx.sendSignal = caller.signal;
  await transport.readJson(await transport.send({ requestId: "r", accessToken: "t" }, ctx, { method: "GET" }), schema);
};

/** CPU µs per call over CALLS sequential calls. */
async function cpuPerCall(call: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await call();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / CALLS;
}

for (let i = 0; i < 3_000; i++) {
  await throughChain();
  await direct();
}
const rounds: { chain: number; direct: number }[] = [];
for (let round = 0; round < ROUNDS; round++) rounds.push({ chain: await cpuPerCall(throughChain), direct: await cpuPerCall(direct) });
const median = [...rounds].sort((a, b) => a.chain - a.direct - (b.chain - b.direct))[Math.floor(rounds.length / 2)]!;
const us = (x: number) => `${x.toFixed(1)} µs`;
console.log(`upstream chain bench — ${CALLS} calls per run, ${ROUNDS} rounds, MockAgent (no network)`);
for (const [i, r] of rounds.entries()) console.log(`  round ${i + 1}: through the chain ${us(r.chain)}, direct ${us(r.direct)}`);
console.log(
  `  the chain's own cost per call (median round): ${us(median.chain - median.direct)}  (${us(median.chain)} − ${us(median.direct)})`,
);
await client.close();
await transport.close();
await agent.close();

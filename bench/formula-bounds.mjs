/* global fetch, performance -- Node 22+ globals */
// Issue 37 F1/F2 against a running gateway (`npm start`): the time to answer, the gateway's RSS
// (peak while the request runs, sampled every 50 ms from /proc) and /healthz's slowest answer
// meanwhile. Plain Node, no dependencies:
//   node bench/formula-bounds.mjs <url> <key with sheets:read,sheets:write> <gateway pid>
const [url = "http://127.0.0.1:8080", key, pid] = process.argv.slice(2);
if (!key || !pid) throw new Error("usage: node bench/formula-bounds.mjs <url> <key> <gateway pid>");

const rss = async () => {
  const { readFile } = await import("node:fs/promises");
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
};

async function request(method, path, body, extra = {}) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...extra },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** Runs `job` while sampling RSS and /healthz every 50 ms. */
async function measured(name, job) {
  const before = await rss();
  let peak = before;
  let healthWorst = 0;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, await rss());
      const started = performance.now();
      await fetch(`${url}/healthz`).then((r) => r.arrayBuffer());
      healthWorst = Math.max(healthWorst, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const started = performance.now();
  const answer = await job();
  const ms = Math.round(performance.now() - started);
  running = false;
  await sampler;
  console.log(
    `${name}: ${answer.status} in ${ms} ms; RSS ${before} -> peak ${peak} MB; /healthz worst ${Math.round(healthWorst)} ms; ${answer.text.slice(0, 160)}`,
  );
}

const created = await request("POST", "/api/v1/spreadsheets", {
  name: "bounds",
  sheets: [
    {
      name: "Sheet1",
      values: [
        [1, 2],
        [3, 4],
      ],
    },
  ],
});
const { id } = JSON.parse(created.text);
const F2 = '=LEN(SUBSTITUTE(REPT("a",32767),"a",REPT("b",32767)))';
await measured("F1 evaluate =SUMPRODUCT(A1:XFD1000*1)", () =>
  request("POST", `/api/v1/spreadsheets/${id}/evaluate`, { formula: "=SUMPRODUCT(A1:XFD1000*1)" }),
);
await measured("F1 evaluate =SUMPRODUCT(A1:XFD600*1) (9.8M cells, under the bound)", () =>
  request("POST", `/api/v1/spreadsheets/${id}/evaluate`, { formula: "=SUMPRODUCT(A1:XFD600*1)" }),
);
await measured("F2 evaluate", () => request("POST", `/api/v1/spreadsheets/${id}/evaluate`, { formula: F2 }));
await measured("F2 cell write", () => request("PUT", `/api/v1/spreadsheets/${id}/values/C1`, { values: [[F2]] }));
await measured("F2 MCP sheets_evaluate", () =>
  request(
    "POST",
    "/mcp",
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "sheets_evaluate", arguments: { id, formula: F2 } } },
    { accept: "application/json, text/event-stream" },
  ),
);

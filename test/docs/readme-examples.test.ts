// Executable docs: every example in README.md and docs/*.md that talks to a running gateway is run
// against `npm run demo` (the sandbox products, a gateway wired to them, its API key and access
// token), and must answer 2xx with the shape the docs show. A block that cannot run here carries
// `<!-- not-run: why -->` just before it (test/docs/examples.ts); any other block this test does
// not know how to run fails it, so nothing is skipped silently.
//
// Placeholders the docs use and what they become here:
//   http://127.0.0.1:4000  the demo gateway's URL        wgk_…  the demo's API key
//   $KEY / $TOKEN / $GATEWAY  the demo's key, access token and URL (as `npm run demo` prints them)
//   doc_…  the id of a document created for the purpose
//   wb_…  the id of a spreadsheet created for the purpose (README "Spreadsheets": the Budget it creates)
// - ```sh blocks run in bash (set -euo pipefail) in a temporary directory; each `curl` must
//   answer 2xx, and a REST or GraphQL answer must have its documented shape.
// - ```graphql blocks run each operation (access token), as do the products table's GraphQL cells.
// - The products table's tRPC cells run on the typed client (`gateway.<cell>`).
// - ```ts blocks must be one of examples/*.ts, which is run with tsx.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Kind, parse, type OperationDefinitionNode, type SelectionSetNode } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayClient, type GatewayClient } from "../../src/client/index.ts";
import { requireProgram } from "../helpers/external.ts";
import { fencedBlocks, productTable, type Block, type TableExample } from "./examples.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const DOCUMENTED_URL = "http://127.0.0.1:4000";
const curl = requireProgram("curl", {
  install: "apt-get install -y curl",
  purpose: "the README examples' curl commands (test/docs/readme-examples.test.ts)",
});

const docFiles = [
  "README.md",
  ...(await readdir(join(root, "docs")).catch(() => [] as string[])).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`),
];
const blocks: Block[] = [];
const rows: TableExample[] = [];
for (const file of docFiles) {
  const markdown = await readFile(join(root, file), "utf8");
  blocks.push(...fencedBlocks(file, markdown));
  rows.push(...productTable(file, markdown));
}
const runnable = blocks.filter((b) => b.lang !== "" && b.lang !== "text" && !b.notRun);

let demo: ChildProcess;
let exited: Promise<unknown>;
let stdout = "";
let gateway = "";
let apiKey = "";
let token = "";
let docId = "";
let sheetId = "";
let client: GatewayClient;
let work = "";

beforeAll(async () => {
  demo = spawn(process.execPath, ["--import", "tsx", "scripts/demo.ts"], {
    cwd: root,
    env: { ...process.env, PORT: "0", SANDBOX_PORT: "0", LOG_LEVEL: "silent" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  demo.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  demo.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  exited = new Promise((resolve) => demo.once("exit", resolve));
  // The demo's ready line, or its exit: whichever comes first.
  await new Promise<void>((resolve, reject) => {
    const check = () => (stdout.includes("Demo ready") ? resolve() : undefined);
    demo.stdout!.on("data", check);
    demo.once("exit", (code) => reject(new Error(`the demo exited (${code}) before it was ready\n${stdout}\n${stderr}`)));
  });
  const exports = /export GATEWAY='([^']+)' KEY='([^']+)' TOKEN='([^']+)'/.exec(stdout);
  if (!exports) throw new Error(`no "export GATEWAY=… KEY=… TOKEN=…" line in the demo's output:\n${stdout}`);
  [, gateway, apiKey, token] = exports as unknown as [string, string, string, string];
  client = createGatewayClient({ url: gateway, token });
  docId = (
    await client.documents.create.mutate({
      name: "Docs example",
      markdown: "# Docs example\n\nA document the README's `doc_…` stands for.",
    })
  ).id;
  sheetId = (
    await client.sheets.create.mutate({
      name: "Budget",
      sheets: [
        {
          name: "Data",
          values: [
            ["item", "qty", "price", "total"],
            ["apple", 3, 1.5, "=B2*C2"],
            ["pear", 2, 2.25, "=B3*C3"],
            ["sum", "=SUM(B2:B3)", null, "=SUM(D2:D3)"],
          ],
        },
      ],
    })
  ).id;
  work = await mkdtemp(join(tmpdir(), "wg-readme-"));
}, 90_000);

afterAll(async () => {
  if (demo && demo.exitCode === null && demo.signalCode === null) {
    demo.kill("SIGINT");
    await exited;
  }
  if (work) await rm(work, { recursive: true, force: true });
});

const substitute = (code: string) =>
  code.replaceAll(DOCUMENTED_URL, gateway).replaceAll("wgk_…", apiKey).replaceAll("doc_…", docId).replaceAll("wb_…", sheetId);
const where = (x: { file: string; line: number }) => `${x.file}:${x.line}`;
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Every field the selection asks for is in the answer; top-level fields are non-null; lists of edges and top-level lists are non-empty. */
function expectShape(selection: SelectionSetNode, data: unknown, path: string, top: boolean): void {
  expect(isObject(data), `${path} is an object`).toBe(true);
  const object = data as Record<string, unknown>;
  for (const node of selection.selections) {
    if (node.kind !== Kind.FIELD) throw new Error(`${path}: fragments are not used in the docs' examples`);
    const key = node.alias?.value ?? node.name.value;
    const at = `${path}.${key}`;
    expect(object, `${at} is in the answer`).toHaveProperty([key]);
    const value = object[key];
    if (top) expect(value, `${at} is not null`).not.toBeNull();
    if (Array.isArray(value)) {
      if (top || key === "edges") expect(value.length, `${at} is not empty`).toBeGreaterThan(0);
      if (node.selectionSet) for (const [i, item] of value.entries()) expectShape(node.selectionSet, item, `${at}[${i}]`, false);
    } else if (value !== null && node.selectionSet) {
      expectShape(node.selectionSet, value, at, false);
    }
  }
}

async function runGraphQL(source: string, label: string): Promise<void> {
  const document = parse(source);
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  expect(operations.length, `${label}: has an operation`).toBeGreaterThan(0);
  for (const operation of operations) {
    if (operations.length > 1 && !operation.name) throw new Error(`${label}: with several operations in one block, name each one`);
    const usesUpload = operation.variableDefinitions?.some((v) => v.variable.name.value === "file") ?? false;
    let response: Response;
    if (usesUpload) {
      // The GraphQL multipart request spec: operations, map, then the file.
      const form = new FormData();
      form.append("operations", JSON.stringify({ query: source, operationName: operation.name?.value, variables: { file: null } }));
      form.append("map", JSON.stringify({ 0: ["variables.file"] }));
      form.append("0", new File(["quarterly numbers\n"], "report.txt", { type: "text/plain" }), "report.txt");
      response = await fetch(`${gateway}/graphql`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
    } else {
      response = await fetch(`${gateway}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ query: source, ...(operation.name ? { operationName: operation.name.value } : {}) }),
      });
    }
    const text = await response.text();
    expect(response.status, `${label}: ${text}`).toBe(200);
    const body = JSON.parse(text) as { data?: unknown; errors?: unknown };
    expect(body.errors, `${label}: ${text}`).toBeUndefined();
    expectShape(operation.selectionSet, body.data, `${label} ${operation.name?.value ?? operation.operation}`, true);
  }
}

interface CurlCall {
  status: number;
  method: string;
  url: string;
  contentType: string;
  body: string;
}

/** Runs a shell block in bash, every curl reporting its status, method, URL and content type after its body. */
async function runShell(code: string, label: string): Promise<{ calls: CurlCall[]; stdout: string }> {
  const marker = "@@curl@@";
  const script = [
    "set -euo pipefail",
    `curl() { command curl -w '\\n${marker} %{http_code} %{method} %{url_effective} %{content_type}\\n' "$@"; }`,
    code,
  ].join("\n");
  const child = spawn("bash", ["-c", script], {
    cwd: work,
    env: { ...process.env, GATEWAY: gateway, KEY: apiKey, TOKEN: token, ROOT: root },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (out += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => (err += c));
  const code_ = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  expect(code_, `${label} exited ${code_}\nstdout: ${out}\nstderr: ${err}`).toBe(0);
  const calls: CurlCall[] = [];
  let body: string[] = [];
  for (const line of out.split("\n")) {
    if (line.startsWith(`${marker} `)) {
      const [status, method, url, contentType = ""] = line.slice(marker.length + 1).split(" ");
      calls.push({ status: Number(status), method: method!, url: url!, contentType, body: body.join("\n") });
      body = [];
    } else {
      body.push(line);
    }
  }
  return { calls, stdout: out };
}

/** The documented shape of a REST or GraphQL answer, by route. */
function expectCurlAnswer(call: CurlCall, label: string): void {
  const what = `${label}: ${call.method} ${call.url} → ${call.status} ${call.body.slice(0, 300)}`;
  expect(call.status >= 200 && call.status < 300, what).toBe(true);
  const path = new URL(call.url).pathname;
  const json = () => JSON.parse(call.body) as Record<string, unknown>;
  if (path === "/graphql") {
    const body = json();
    expect(body["errors"], what).toBeUndefined();
    expect(isObject(body["data"]), what).toBe(true);
    for (const [field, value] of Object.entries(body["data"] as object)) expect(value, `${what} (${field})`).not.toBeNull();
  } else if (path === "/api/v1/documents" && call.method === "POST") {
    expect(json(), what).toMatchObject({
      id: expect.stringMatching(/^doc_/),
      url: expect.any(String),
      downloadUrl: expect.any(String),
      characters: expect.any(Number),
    });
  } else if (path === "/api/v1/documents") {
    const body = json();
    expect((body["documents"] as unknown[]).length, what).toBeGreaterThan(0);
    expect(body, what).toHaveProperty("nextCursor");
  } else if (/^\/api\/v1\/(documents|trash)\/doc_[^/]+(\/restore)?$/.test(path) && call.method !== "GET") {
    // A change (PUT, PATCH, restore): the record at its new version; DELETE: 204, no body.
    if (call.method === "DELETE") expect(call.status, what).toBe(204);
    else expect(json(), what).toMatchObject({ id: expect.stringMatching(/^doc_/), version: expect.any(Number), url: expect.any(String) });
  } else if (/^\/api\/v1\/documents\/doc_[^/]+\/versions$/.test(path)) {
    expect((json()["versions"] as unknown[]).length, what).toBeGreaterThan(0);
  } else if (/^\/api\/v1\/documents\/doc_[^/]+\/shares$/.test(path) && call.method === "POST") {
    expect(json(), what).toMatchObject({ id: expect.stringMatching(/^shr_/), url: expect.stringMatching(/\/api\/v1\/shared\/wgs_/) });
  } else if (path === "/api/v1/trash") {
    expect((json()["documents"] as unknown[]).length, what).toBeGreaterThan(0);
  } else if (/^\/api\/v1\/documents\/doc_[^/]+(\/versions\/\d+)?$/.test(path)) {
    expect(json(), what).toMatchObject({
      id: expect.any(String),
      text: expect.any(String),
      truncated: expect.any(Boolean),
      totalChars: expect.any(Number),
    });
  } else if (path === "/api/v1/spreadsheets" && call.method === "POST") {
    expect(json(), what).toMatchObject({
      id: expect.stringMatching(/^wb_/),
      version: 1,
      sheets: expect.any(Array),
      cells: expect.any(Number),
    });
  } else if (/^\/api\/v1\/spreadsheets\/wb_[^/]+$/.test(path)) {
    expect((json()["sheets"] as unknown[]).length, what).toBeGreaterThan(0);
  } else if (/^\/api\/v1\/spreadsheets\/wb_[^/]+\/values\//.test(path) && call.method === "GET") {
    if (call.contentType.startsWith("application/json"))
      expect(json(), what).toMatchObject({ range: expect.any(String), values: expect.any(Array) });
    else expect(call.body.trim().length, what).toBeGreaterThan(0);
  } else if (/^\/api\/v1\/spreadsheets\/wb_[^/]+\/(values\/.+|append|edit)$/.test(path)) {
    expect(json(), what).toMatchObject({
      spreadsheet: { id: expect.stringMatching(/^wb_/) },
      updatedCells: expect.any(Number),
      warnings: [],
    });
  } else if (/^\/api\/v1\/spreadsheets\/wb_[^/]+\/evaluate$/.test(path)) {
    expect(json(), what).toHaveProperty("value");
  } else if (/\/content$/.test(path)) {
    // Saved by -OJ under the server's file name; the body is not on stdout.
    expect(call.contentType, what).not.toBe("");
  } else if (call.contentType.startsWith("application/json")) {
    json();
  }
}

describe("the docs' examples", () => {
  it("there are examples, and every fenced block is runnable or marked not-run with a reason", () => {
    expect(runnable.length).toBeGreaterThan(3);
    expect(rows.length).toBeGreaterThanOrEqual(17);
    for (const block of runnable) {
      expect(
        ["sh", "bash", "graphql", "ts"],
        `${where(block)}: a \`\`\`${block.lang} block; run it here or mark it <!-- not-run: why -->`,
      ).toContain(block.lang);
    }
  });

  it.skipIf(!curl).each(runnable.filter((b) => b.lang === "sh" || b.lang === "bash").map((b) => [where(b), b] as const))(
    "%s (shell)",
    async (label, block) => {
      const code = substitute(block.code);
      if (code.includes("curl ")) {
        const { calls } = await runShell(code, label);
        expect(calls.length, `${label}: curl calls`).toBeGreaterThan(0);
        for (const call of calls) expectCurlAnswer(call, label);
      } else if (code.includes("node cli.js")) {
        // The MCP Inspector CLI, from the repository's root as the README's `cd` assumes.
        const { stdout: out } = await runShell(`cd "$ROOT"\n${code}`, label);
        // tools/list names the tools; a tools/call answers its result with structuredContent.
        expect(out, label).toMatch(code.includes("tools/list") ? /docs_list/ : /structuredContent/);
        expect(out, label).not.toMatch(/"isError":\s*true/);
      } else {
        throw new Error(`${label}: a shell block this test cannot run; mark it <!-- not-run: why -->`);
      }
    },
  );

  it.each(runnable.filter((b) => b.lang === "graphql").map((b) => [where(b), b] as const))("%s (GraphQL)", async (label, block) => {
    await runGraphQL(substitute(block.code), label);
  });

  it.each(runnable.filter((b) => b.lang === "ts").map((b) => [where(b), b] as const))(
    "%s (TypeScript, an examples/ file)",
    async (label, block) => {
      const examples = (await readdir(join(root, "examples"))).filter((f) => f.endsWith(".ts"));
      let file: string | undefined;
      for (const name of examples) if ((await readFile(join(root, "examples", name), "utf8")).includes(block.code)) file = name;
      if (!file) throw new Error(`${label}: the block is not the code of any examples/*.ts (keep them identical)`);
      // Twice: a reader runs an example again, with the same key (a fixed idempotency key once made the second run fail).
      for (const run of [1, 2]) {
        const child = spawn(process.execPath, ["--import", "tsx", join("examples", file)], {
          cwd: root,
          env: { ...process.env, GATEWAY_URL: gateway, GATEWAY_API_KEY: apiKey },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        child.stdout.setEncoding("utf8").on("data", (c: string) => (out += c));
        child.stderr.setEncoding("utf8").on("data", (c: string) => (out += c));
        expect(await new Promise((resolve) => child.once("exit", resolve)), `${label}: examples/${file}, run ${run}\n${out}`).toBe(0);
      }
    },
  );
});

describe("the products table", () => {
  const MUTATIONS = new Set([
    "sendMessage",
    "createDraft",
    "createBooking",
    "uploadFile",
    "createShare",
    "searchChat",
    "createMeeting",
    "runWorkflow",
    "createDocument",
  ]);

  it.each(rows.map((r) => [`${where(r)} ${r.operation}`, r] as const))("%s: the GraphQL cell", async (label, row) => {
    const field = /^\w+/.exec(row.graphql)![0];
    const kind = MUTATIONS.has(field) ? "mutation" : "query";
    const variables = row.graphql.includes("$file") ? "($file: Upload!) " : "";
    await runGraphQL(`${kind} ${variables}{ ${row.graphql} }`, label);
  });

  it.each(rows.map((r) => [`${where(r)} ${r.operation}`, r] as const))("%s: the tRPC cell", async (label, row) => {
    const formData = new FormData();
    formData.append("file", new File(["quarterly numbers\n"], "report.txt", { type: "text/plain" }));
    formData.append("name", "report.txt");
    const call = new Function("gateway", "formData", `return gateway.${row.trpc};`) as (g: GatewayClient, f: FormData) => Promise<unknown>;
    const result = await call(client, formData).catch((error: unknown) => {
      throw new Error(`${label}: gateway.${row.trpc} failed: ${(error as Error).message}`);
    });
    // An object (a list page's data non-empty), or a non-empty list.
    if (Array.isArray(result)) expect(result.length, `${label}: a non-empty list`).toBeGreaterThan(0);
    else {
      expect(isObject(result), `${label}: an object`).toBe(true);
      const data = (result as Record<string, unknown>)["data"];
      if (Array.isArray(data)) expect(data.length, `${label}: a non-empty list`).toBeGreaterThan(0);
    }
  });
});

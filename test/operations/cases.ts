// How to call each operation of the table on each surface it offers, with the fixtures it needs
// (a document, a trashed one, a share link…) made fresh through tRPC. `cases` is a Record over
// every operation name: a new row without a case does not compile.
import { renderedDocx } from "../documents/import/docx-fixtures.ts";
import type { OperationName } from "../../src/services/operations/index.ts";
import { trpcClient } from "../products/harness.ts";

export interface Fixtures {
  url: string;
  token: string;
}

interface GraphqlCall {
  query: string;
  variables?: Record<string, unknown>;
  files?: Record<string, File>;
}
interface RestCall {
  path: string;
  init?: RequestInit;
}
export interface Case {
  /** The operation's input (tRPC; MCP too unless `mcp` says otherwise). */
  input?: (f: Fixtures) => unknown;
  trpc?: (f: Fixtures) => unknown;
  mcp?: (f: Fixtures) => Record<string, unknown> | Promise<Record<string, unknown>>;
  graphql?: (f: Fixtures) => GraphqlCall | Promise<GraphqlCall>;
  rest?: (f: Fixtures) => RestCall | Promise<RestCall>;
}

type Client = Record<string, Record<string, { query(i: unknown): Promise<unknown>; mutate(i: unknown): Promise<unknown> }>>;
const client = (f: Fixtures) => trpcClient(f.url, { token: f.token }) as unknown as Client;

let counter = 0;
/** A fresh document of the caller's (version 2: it has a history). */
async function doc(f: Fixtures): Promise<string> {
  const created = (await client(f).documents!.create!.mutate({ name: `Case ${++counter}`, markdown: "# One\n\nText." })) as { id: string };
  await client(f).documents!.update!.mutate({ id: created.id, markdown: "# Two\n\nMore text." });
  return created.id;
}
async function trashed(f: Fixtures): Promise<string> {
  const id = await doc(f);
  await client(f).documents!.delete!.mutate({ id });
  return id;
}
async function share(f: Fixtures): Promise<{ id: string; shareId: string; token: string }> {
  const id = await doc(f);
  const created = (await client(f).documents!.share!.mutate({ id })) as { id: string; url: string };
  return { id, shareId: created.id, token: created.url.split("/").pop() as string };
}
const docxFile = async () => new File([(await renderedDocx("# Imported\n\nText.")) as Uint8Array<ArrayBuffer>], "imported.docx");
const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

/** A fresh spreadsheet of the caller's (version 2: it has a history), with a formula. */
async function sheet(f: Fixtures): Promise<string> {
  const created = (await client(f).sheets!.create!.mutate({
    name: `Sheet case ${++counter}`,
    sheets: [
      {
        name: "Data",
        values: [
          ["n", "double"],
          [1, "=A2*2"],
        ],
      },
    ],
  })) as { id: string };
  await client(f).sheets!.write!.mutate({ id: created.id, range: "Data!A3:B3", values: [[2, "=A3*2"]] });
  return created.id;
}
async function trashedSheet(f: Fixtures): Promise<string> {
  const id = await sheet(f);
  await client(f).sheets!.delete!.mutate({ id });
  return id;
}
/** A fresh spreadsheet with the workbook-scoped name Rate (=0.07). */
async function namedSheet(f: Fixtures): Promise<string> {
  const id = await sheet(f);
  await client(f).sheets!.defineName!.mutate({ id, name: "Rate", refersTo: "=0.07" });
  return id;
}
async function sheetShare(f: Fixtures): Promise<{ id: string; shareId: string; token: string }> {
  const id = await sheet(f);
  const created = (await client(f).sheets!.share!.mutate({ id })) as { id: string; url: string };
  return { id, shareId: created.id, token: created.url.split("/").pop() as string };
}
const csvFile = () => new File(["a,b\n1,2\n"], "imported.csv", { type: "text/csv" });

const FILE = "file_q3_budget_csv";
const MEETING = "mtg_weekly_product_sync";
const THREAD = "thr_q3_budget_review";

const documentCases: Record<Extract<OperationName, `documents.${string}`>, Case> = {
  "documents.list": {
    input: () => ({ limit: 2 }),
    graphql: () => ({ query: "{ documents(first: 2) { edges { node { id } } } }" }),
    rest: () => ({ path: "/api/v1/documents?limit=2" }),
  },
  "documents.get": {
    input: async (f) => ({ id: await doc(f) }),
    graphql: async (f) => ({ query: `{ document(id: "${await doc(f)}") { id } }` }),
  },
  "documents.read": {
    input: async (f) => ({ id: await doc(f) }),
    graphql: async (f) => ({ query: `{ document(id: "${await doc(f)}") { text { text } } }` }),
    rest: async (f) => ({ path: `/api/v1/documents/${await doc(f)}` }),
  },
  "documents.create": {
    input: () => ({ name: "Created", markdown: "# Hi" }),
    graphql: () => ({ query: 'mutation { createDocument(input: { name: "Created", markdown: "# Hi" }) { id } }' }),
    rest: () => ({ path: "/api/v1/documents", init: json("POST", { name: "Created", markdown: "# Hi" }) }),
  },
  "documents.import": {
    mcp: async () => ({ name: "Imported", content: Buffer.from(await (await docxFile()).arrayBuffer()).toString("base64") }),
    trpc: async () => {
      const form = new FormData();
      form.append("file", await docxFile());
      return form;
    },
    graphql: async () => ({
      query: 'mutation ($file: Upload!) { importDocument(file: $file, name: "Imported") { id } }',
      files: { file: await docxFile() },
    }),
    rest: async () => {
      const form = new FormData();
      form.append("file", await docxFile());
      return { path: "/api/v1/documents", init: { method: "POST", body: form } };
    },
  },
  "documents.download": { rest: async (f) => ({ path: `/api/v1/documents/${await doc(f)}/content` }) },
  "documents.update": {
    input: async (f) => ({ id: await doc(f), markdown: "# Three" }),
    graphql: async (f) => ({ query: `mutation { updateDocument(input: { id: "${await doc(f)}", markdown: "# Three" }) { version } }` }),
    rest: async (f) => ({ path: `/api/v1/documents/${await doc(f)}`, init: json("PUT", { markdown: "# Three" }) }),
  },
  "documents.rename": {
    input: async (f) => ({ id: await doc(f), name: "Renamed" }),
    rest: async (f) => ({ path: `/api/v1/documents/${await doc(f)}`, init: json("PATCH", { name: "Renamed" }) }),
  },
  "documents.delete": {
    input: async (f) => ({ id: await doc(f) }),
    graphql: async (f) => ({ query: `mutation { deleteDocument(id: "${await doc(f)}") }` }),
    rest: async (f) => ({ path: `/api/v1/documents/${await doc(f)}`, init: { method: "DELETE" } }),
  },
  "documents.versions": {
    input: async (f) => ({ id: await doc(f) }),
    graphql: async (f) => ({ query: `{ document(id: "${await doc(f)}") { versions(first: 5) { edges { node { version } } } } }` }),
    rest: async (f) => ({ path: `/api/v1/documents/${await doc(f)}/versions` }),
  },
  "documents.version": {
    graphql: async (f) => ({ query: `{ documentVersion(id: "${await doc(f)}", version: 1) { version } }` }),
  },
  "documents.readVersion": {
    input: async (f) => ({ id: await doc(f), version: 1 }),
    graphql: async (f) => ({ query: `{ documentVersion(id: "${await doc(f)}", version: 1) { text { text } } }` }),
    rest: async (f) => ({ path: `/api/v1/documents/${await doc(f)}/versions/1` }),
  },
  "documents.downloadVersion": { rest: async (f) => ({ path: `/api/v1/documents/${await doc(f)}/versions/1/content` }) },
  "documents.restoreVersion": {
    input: async (f) => ({ id: await doc(f), version: 1 }),
    graphql: async (f) => ({ query: `mutation { restoreDocumentVersion(id: "${await doc(f)}", version: 1) { version } }` }),
    rest: async (f) => ({ path: `/api/v1/documents/${await doc(f)}/versions/1/restore`, init: { method: "POST" } }),
  },
  "documents.trash": {
    input: () => ({ limit: 2 }),
    graphql: () => ({ query: "{ trash(first: 2) { edges { node { id } } } }" }),
    rest: () => ({ path: "/api/v1/trash" }),
  },
  "documents.restore": {
    input: async (f) => ({ id: await trashed(f) }),
    graphql: async (f) => ({ query: `mutation { restoreDocument(id: "${await trashed(f)}") { id } }` }),
    rest: async (f) => ({ path: `/api/v1/trash/${await trashed(f)}/restore`, init: { method: "POST" } }),
  },
  "documents.purge": {
    input: async (f) => ({ id: await trashed(f) }),
    graphql: async (f) => ({ query: `mutation { purgeDocument(id: "${await trashed(f)}") }` }),
    rest: async (f) => ({ path: `/api/v1/trash/${await trashed(f)}`, init: { method: "DELETE" } }),
  },
  "documents.share": {
    input: async (f) => ({ id: await doc(f) }),
    graphql: async (f) => ({ query: `mutation { createDocumentShare(id: "${await doc(f)}") { url } }` }),
    rest: async (f) => ({ path: `/api/v1/documents/${await doc(f)}/shares`, init: { method: "POST" } }),
  },
  "documents.shares": {
    input: async (f) => ({ id: await doc(f) }),
    graphql: async (f) => ({ query: `{ document(id: "${await doc(f)}") { shares { id } } }` }),
    rest: async (f) => ({ path: `/api/v1/documents/${await doc(f)}/shares` }),
  },
  "documents.revokeShare": {
    input: async (f) => {
      const { id, shareId } = await share(f);
      return { id, shareId };
    },
    graphql: async (f) => {
      const { id, shareId } = await share(f);
      return { query: `mutation { revokeDocumentShare(id: "${id}", shareId: "${shareId}") }` };
    },
    rest: async (f) => {
      const { id, shareId } = await share(f);
      return { path: `/api/v1/documents/${id}/shares/${shareId}`, init: { method: "DELETE" } };
    },
  },
};

const spreadsheetCases: Record<Extract<OperationName, `sheets.${string}`>, Case> = {
  "sheets.list": {
    input: () => ({ limit: 2 }),
    graphql: () => ({ query: "{ spreadsheets(first: 2) { edges { node { id } } } }" }),
    rest: () => ({ path: "/api/v1/spreadsheets?limit=2" }),
  },
  "sheets.get": {
    input: async (f) => ({ id: await sheet(f) }),
    graphql: async (f) => ({ query: `{ spreadsheet(id: "${await sheet(f)}") { id sheets { name usedRange header } } }` }),
    rest: async (f) => ({ path: `/api/v1/spreadsheets/${await sheet(f)}` }),
  },
  "sheets.create": {
    input: () => ({ name: "Created", sheets: [{ name: "S", values: [[1, "=A1+1"]] }] }),
    graphql: () => ({ query: 'mutation { createSpreadsheet(input: { name: "Created", sheets: [{ name: "S", values: [[1]] }] }) { id } }' }),
    rest: () => ({ path: "/api/v1/spreadsheets", init: json("POST", { name: "Created", sheets: [{ name: "S", csv: "a,b\n1,2" }] }) }),
  },
  "sheets.import": {
    trpc: () => {
      const form = new FormData();
      form.append("file", csvFile());
      return form;
    },
    mcp: () => ({ name: "From drive", driveFileId: FILE }),
    graphql: () => ({
      query: 'mutation ($file: Upload!) { importSpreadsheet(file: $file, name: "Imported") { id } }',
      files: { file: csvFile() },
    }),
    rest: () => {
      const form = new FormData();
      form.append("file", csvFile());
      return { path: "/api/v1/spreadsheets", init: { method: "POST", body: form } };
    },
  },
  "sheets.read": {
    input: async (f) => ({ id: await sheet(f), range: "Data!A1:B3" }),
    rest: async (f) => ({ path: `/api/v1/spreadsheets/${await sheet(f)}/values/${encodeURIComponent("Data!A1:B3")}` }),
  },
  "sheets.range": {
    graphql: async (f) => ({
      query: `{ spreadsheet(id: "${await sheet(f)}") { range(range: "Data!A1:B3", render: BOTH) { values truncated } } }`,
    }),
  },
  "sheets.write": {
    input: async (f) => ({ id: await sheet(f), range: "Data!A2", values: [[5]] }),
    graphql: async (f) => ({
      query: `mutation { writeRange(input: { id: "${await sheet(f)}", range: "Data!A2", values: [[5]] }) { recalculatedCells } }`,
    }),
    rest: async (f) => ({ path: `/api/v1/spreadsheets/${await sheet(f)}/values/Data!A2`, init: json("PUT", { values: [[5]] }) }),
  },
  "sheets.append": {
    input: async (f) => ({ id: await sheet(f), values: [[3, "=A4*2"]] }),
    graphql: async (f) => ({ query: `mutation { appendRows(input: { id: "${await sheet(f)}", records: [{ n: 3 }] }) { updatedRange } }` }),
    rest: async (f) => ({ path: `/api/v1/spreadsheets/${await sheet(f)}/append`, init: json("POST", { values: [[4]] }) }),
  },
  "sheets.edit": {
    input: async (f) => ({ id: await sheet(f), operations: [{ insertRows: { sheet: "Data", at: 2, count: 1 } }] }),
    graphql: async (f) => ({
      query: `mutation { editSpreadsheet(id: "${await sheet(f)}", operations: [{ addSheet: { name: "More" } }]) { spreadsheet { sheets { name } } } }`,
    }),
    rest: async (f) => ({
      path: `/api/v1/spreadsheets/${await sheet(f)}/edit`,
      init: json("POST", { operations: [{ clear: { range: "Data!A2" } }] }),
    }),
  },
  "sheets.evaluate": {
    input: async (f) => ({ id: await sheet(f), formula: "=SUM(Data!B2:B3)" }),
    rest: async (f) => ({ path: `/api/v1/spreadsheets/${await sheet(f)}/evaluate`, init: json("POST", { formula: "=SUM(Data!B2:B3)" }) }),
  },
  "sheets.names": {
    input: async (f) => ({ id: await namedSheet(f) }),
    graphql: async (f) => ({ query: `{ spreadsheet(id: "${await namedSheet(f)}") { names { name sheet refersTo } } }` }),
    rest: async (f) => ({ path: `/api/v1/spreadsheets/${await namedSheet(f)}/names` }),
  },
  "sheets.defineName": {
    input: async (f) => ({ id: await sheet(f), name: "Rate", refersTo: "=Data!$B$2", sheet: "Data" }),
    graphql: async (f) => ({
      query: `mutation { defineSpreadsheetName(input: { id: "${await sheet(f)}", name: "Rate", refersTo: "=0.07" }) { recalculatedCells } }`,
    }),
    rest: async (f) => ({ path: `/api/v1/spreadsheets/${await sheet(f)}/names/Rate`, init: json("PUT", { refersTo: "=0.07" }) }),
  },
  "sheets.deleteName": {
    input: async (f) => ({ id: await namedSheet(f), name: "Rate" }),
    graphql: async (f) => ({
      query: `mutation { deleteSpreadsheetName(id: "${await namedSheet(f)}", name: "Rate") { recalculatedCells } }`,
    }),
    rest: async (f) => ({ path: `/api/v1/spreadsheets/${await namedSheet(f)}/names/Rate`, init: { method: "DELETE" } }),
  },
  "sheets.download": { rest: async (f) => ({ path: `/api/v1/spreadsheets/${await sheet(f)}/content` }) },
  "sheets.rename": {
    input: async (f) => ({ id: await sheet(f), name: "Renamed" }),
    graphql: async (f) => ({ query: `mutation { renameSpreadsheet(id: "${await sheet(f)}", name: "Renamed") { name } }` }),
    rest: async (f) => ({ path: `/api/v1/spreadsheets/${await sheet(f)}`, init: json("PATCH", { name: "Renamed" }) }),
  },
  "sheets.delete": {
    input: async (f) => ({ id: await sheet(f) }),
    graphql: async (f) => ({ query: `mutation { deleteSpreadsheet(id: "${await sheet(f)}") }` }),
    rest: async (f) => ({ path: `/api/v1/spreadsheets/${await sheet(f)}`, init: { method: "DELETE" } }),
  },
  "sheets.versions": {
    input: async (f) => ({ id: await sheet(f) }),
    graphql: async (f) => ({
      query: `{ spreadsheet(id: "${await sheet(f)}") { versions(first: 5) { edges { node { version source } } } } }`,
    }),
    rest: async (f) => ({ path: `/api/v1/spreadsheets/${await sheet(f)}/versions` }),
  },
  "sheets.readVersion": {
    input: async (f) => ({ id: await sheet(f), version: 1 }),
    rest: async (f) => ({ path: `/api/v1/spreadsheets/${await sheet(f)}/versions/1` }),
  },
  "sheets.downloadVersion": { rest: async (f) => ({ path: `/api/v1/spreadsheets/${await sheet(f)}/versions/1/content` }) },
  "sheets.restoreVersion": {
    input: async (f) => ({ id: await sheet(f), version: 1 }),
    graphql: async (f) => ({ query: `mutation { restoreSpreadsheetVersion(id: "${await sheet(f)}", version: 1) { version } }` }),
    rest: async (f) => ({ path: `/api/v1/spreadsheets/${await sheet(f)}/versions/1/restore`, init: { method: "POST" } }),
  },
  "sheets.restore": {
    input: async (f) => ({ id: await trashedSheet(f) }),
    graphql: async (f) => ({ query: `mutation { restoreSpreadsheet(id: "${await trashedSheet(f)}") { id } }` }),
  },
  "sheets.purge": {
    input: async (f) => ({ id: await trashedSheet(f) }),
    graphql: async (f) => ({ query: `mutation { purgeSpreadsheet(id: "${await trashedSheet(f)}") }` }),
  },
  "sheets.share": {
    input: async (f) => ({ id: await sheet(f) }),
    graphql: async (f) => ({ query: `mutation { createSpreadsheetShare(id: "${await sheet(f)}") { url } }` }),
    rest: async (f) => ({ path: `/api/v1/spreadsheets/${await sheet(f)}/shares`, init: { method: "POST" } }),
  },
  "sheets.shares": {
    input: async (f) => ({ id: await sheet(f) }),
    graphql: async (f) => ({ query: `{ spreadsheet(id: "${await sheet(f)}") { shares { id } } }` }),
    rest: async (f) => ({ path: `/api/v1/spreadsheets/${await sheet(f)}/shares` }),
  },
  "sheets.revokeShare": {
    input: async (f) => {
      const { id, shareId } = await sheetShare(f);
      return { id, shareId };
    },
    graphql: async (f) => {
      const { id, shareId } = await sheetShare(f);
      return { query: `mutation { revokeSpreadsheetShare(id: "${id}", shareId: "${shareId}") }` };
    },
    rest: async (f) => {
      const { id, shareId } = await sheetShare(f);
      return { path: `/api/v1/spreadsheets/${id}/shares/${shareId}`, init: { method: "DELETE" } };
    },
  },
};

const workspaceCases: Record<Extract<OperationName, `shared.${string}` | `trash.${string}`>, Case> = {
  "shared.read": { rest: async (f) => ({ path: `/api/v1/shared/${(await share(f)).token}` }) },
  "shared.download": { rest: async (f) => ({ path: `/api/v1/shared/${(await share(f)).token}/content` }) },
  "trash.list": { rest: () => ({ path: "/api/v1/trash" }) },
  "trash.restore": { rest: async (f) => ({ path: `/api/v1/trash/${await trashedSheet(f)}/restore`, init: { method: "POST" } }) },
  "trash.purge": { rest: async (f) => ({ path: `/api/v1/trash/${await trashed(f)}`, init: { method: "DELETE" } }) },
};

const productCases: Record<
  Exclude<OperationName, keyof typeof documentCases | keyof typeof spreadsheetCases | keyof typeof workspaceCases>,
  Case
> = {
  "messages.list": { input: () => ({ limit: 2 }), graphql: () => ({ query: "{ messages(first: 2) { edges { node { id } } } }" }) },
  "messages.thread": { input: () => ({ id: THREAD }), graphql: () => ({ query: `{ thread(id: "${THREAD}") { id } }` }) },
  "messages.send": {
    input: () => ({ to: ["a@example.com"], subject: "s", body: "b" }),
    graphql: () => ({ query: 'mutation { sendMessage(input: { to: ["a@example.com"], subject: "s", body: "b" }) { id } }' }),
  },
  "messages.createDraft": {
    input: () => ({ subject: "s" }),
    graphql: () => ({ query: 'mutation { createDraft(input: { subject: "s" }) { id } }' }),
  },
  "calendar.events": { input: () => ({ limit: 2 }), graphql: () => ({ query: "{ calendarEvents(first: 2) { edges { node { id } } } }" }) },
  "bookings.create": {
    input: () => ({ bookingTypeId: "bt_demo60", start: "2027-01-04T10:00:00Z", attendee: { name: "A", email: "a@example.com" } }),
    graphql: () => ({
      query:
        'mutation { createBooking(input: { bookingTypeId: "bt_demo60", start: "2027-01-05T10:00:00Z", attendee: { name: "A", email: "a@example.com" } }) { id } }',
    }),
    mcp: () => ({ bookingTypeId: "bt_demo60", start: "2027-01-06T10:00:00Z", attendee: { name: "A", email: "a@example.com" } }),
  },
  "files.get": { input: () => ({ id: FILE }), graphql: () => ({ query: `{ file(id: "${FILE}") { id } }` }) },
  "files.upload": {
    trpc: () => {
      const form = new FormData();
      form.append("file", new Blob(["hi"], { type: "text/plain" }), "t.txt");
      return form;
    },
    mcp: () => ({ name: "t.txt", content: Buffer.from("hi").toString("base64") }),
    graphql: () => ({
      query: "mutation ($file: Upload!) { uploadFile(file: $file) { id } }",
      files: { file: new File(["hi"], "t.txt", { type: "text/plain" }) },
    }),
  },
  "files.download": { rest: () => ({ path: `/api/v1/files/${FILE}/content` }) },
  "files.read": { input: () => ({ id: FILE, maxChars: 100 }) },
  "files.search": { input: () => ({ query: "budget" }), graphql: () => ({ query: '{ searchFiles(query: "budget") { id } }' }) },
  "files.share": {
    input: () => ({ fileId: FILE, permission: "view" }),
    graphql: () => ({ query: `mutation { createShare(input: { fileId: "${FILE}", permission: view }) { url } }` }),
  },
  "search.query": { input: () => ({ query: "budget" }), graphql: () => ({ query: '{ search(query: "budget") { answer } }' }) },
  "search.chat": {
    input: () => ({ message: "hi" }),
    graphql: () => ({ query: 'mutation { searchChat(input: { message: "hi" }) { answer } }' }),
  },
  "meetings.get": { graphql: () => ({ query: `{ meeting(id: "${MEETING}") { id } }` }) },
  "meetings.create": {
    input: () => ({ title: "t", startsAt: "2026-12-01T09:00:00Z", durationMinutes: 30 }),
    graphql: () => ({
      query: 'mutation { createMeeting(input: { title: "t", startsAt: "2026-12-01T09:00:00Z", durationMinutes: 30 }) { id } }',
    }),
  },
  "meetings.transcript": {
    input: () => ({ id: MEETING }),
    graphql: () => ({ query: `{ meeting(id: "${MEETING}") { transcript { meetingId } } }` }),
  },
  "meetings.summary": {
    input: () => ({ id: MEETING }),
    graphql: () => ({ query: `{ meeting(id: "${MEETING}") { summary { meetingId } } }` }),
  },
  "enterprise.dataQuery": {
    input: () => ({ question: "totals" }),
    graphql: () => ({ query: '{ dataQuery(question: "totals") { answer } }' }),
  },
  "enterprise.invoices": { input: () => ({ limit: 2 }), graphql: () => ({ query: "{ invoices(first: 2) { edges { node { id } } } }" }) },
  "workflows.run": {
    input: () => ({ id: "wf_invoice_reminder" }),
    graphql: () => ({ query: 'mutation { runWorkflow(id: "wf_invoice_reminder") { runId } }' }),
  },
};

export const cases: Record<OperationName, Case> = { ...documentCases, ...spreadsheetCases, ...workspaceCases, ...productCases };

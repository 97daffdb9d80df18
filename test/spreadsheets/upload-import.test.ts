// An uploaded .csv or .xlsx (multipart, spooled to a temp file) is read by the spreadsheets worker
// from that file (UploadedFile.path), not by the event loop: the import, the format told from the
// file's first bytes, and the Idempotency-Key's fingerprint must be what they were from the bytes.
// The REST body is spooled straight off Node's request, not through a web stream over it (which
// copies every chunk); a body over the limit is still refused, and the connection still answers.
import { Readable } from "node:stream";
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { rest, SHEETS_SCOPES, type Rest } from "./surfaces.ts";

let tg: TestGateway;
let key: string;
let api: Rest;

beforeAll(async () => {
  tg = await startTestGateway();
  key = await tg.key({ user: "uploads", scopes: SHEETS_SCOPES });
  api = rest(tg.url, key);
});
afterAll(() => tg?.close());

interface Imported {
  id: string;
  cells: number;
}

const csvFile = (text: string, name = "orders.csv") => new File([text], name, { type: "text/csv" });

/** A one-sheet .xlsx (inline strings and numbers), named without an extension the format could be told by. */
function xlsxFile(): File {
  const part = (xml: string) => strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${xml}`);
  const zip = zipSync({
    "[Content_Types].xml": part(
      `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    ),
    "_rels/.rels": part(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    "xl/workbook.xml": part(
      `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Stock" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    "xl/_rels/workbook.xml.rels": part(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
    "xl/worksheets/sheet1.xml": part(
      `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>item</t></is></c><c r="B1"><v>7</v></c></row></sheetData></worksheet>`,
    ),
  });
  return new File([zip], "stock", { type: "application/octet-stream" });
}

describe("an uploaded spreadsheet is read by the worker from its temp file", () => {
  it("imports a CSV's values", async () => {
    const created = await api.upload("/api/v1/spreadsheets", csvFile("item,qty\napple,3\npear,4\n"));
    expect(created.status, created.text).toBe(201);
    const { id, cells } = created.body as Imported;
    expect(cells).toBe(6);
    const read = await api.call<{ values: unknown[][] }>("GET", `/api/v1/spreadsheets/${id}/values/A1:B3`);
    expect(read.body.values).toEqual([
      ["item", "qty"],
      ["apple", 3],
      ["pear", 4],
    ]);
  });

  it("tells an .xlsx by its first bytes when its name and type do not say", async () => {
    const created = await api.upload("/api/v1/spreadsheets", xlsxFile(), { name: "stock" });
    expect(created.status, created.text).toBe(201);
    const read = await api.call<{ values: unknown[][] }>("GET", `/api/v1/spreadsheets/${(created.body as Imported).id}/values/A1:B1`);
    expect(read.body.values).toEqual([["item", 7]]);
  });

  it("a retried upload with the same Idempotency-Key answers the first import, marked replayed", async () => {
    const upload = async (text: string) => {
      const form = new FormData();
      form.append("file", csvFile(text), "keyed.csv");
      const response = await fetch(`${tg.url}/api/v1/spreadsheets`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "idempotency-key": "upload-1" },
        body: form,
      });
      return { status: response.status, replayed: response.headers.get("idempotent-replayed"), body: (await response.json()) as Imported };
    };
    const first = await upload("a,1\nb,2\n");
    expect(first.status).toBe(201);
    const again = await upload("a,1\nb,2\n");
    expect([again.body.id, again.replayed]).toEqual([first.body.id, "true"]);
    // As from the bytes in memory before: a key answers what it first created, whatever the retry carries.
    const other = await upload("a,1\nb,3\n");
    expect([other.body.id, other.replayed]).toEqual([first.body.id, "true"]);
    const read = await api.call<{ values: unknown[][] }>("GET", `/api/v1/spreadsheets/${first.body.id}/values/A1:B2`);
    expect(read.body.values).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
  });

  it("spools the REST body off Node's request: no web stream is made over it", async () => {
    const toWeb = Readable.toWeb;
    let made = 0;
    Readable.toWeb = ((...args: Parameters<typeof toWeb>) => {
      made++;
      return toWeb(...args);
    }) as typeof toWeb;
    try {
      const created = await api.upload("/api/v1/spreadsheets", csvFile("x,y\n1,2\n"));
      expect(created.status, created.text).toBe(201);
    } finally {
      Readable.toWeb = toWeb;
    }
    expect(made).toBe(0);
  });

  it("a file over the upload limit is refused with 413, and the next request on the connection is answered", async () => {
    const big = new File([new Uint8Array(26 * 1024 * 1024).fill(0x61)], "big.csv", { type: "text/csv" });
    const refused = await api.upload("/api/v1/spreadsheets", big);
    expect(refused.status).toBe(413);
    expect((refused.body as { error: { code: string } }).error.code).toBe("PAYLOAD_TOO_LARGE");
    const after = await api.upload("/api/v1/spreadsheets", csvFile("after,1\n"));
    expect(after.status, after.text).toBe(201);
  });
});

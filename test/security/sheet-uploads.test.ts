// Issue 37 F3 and F7, as an attacker sends them to POST /api/v1/spreadsheets (real HTTP, multipart):
// a sheet that inflates to 300 MB while declaring 1,000 bytes (413 after 23-33 s, +430 MB), one
// honestly declaring 1 GB, 10,001 zip entries, 2,000,001 cells, 1.5M unused shared strings, a CSV
// whose quote never closes. Each is refused (413 naming its bound) as soon as the bound is crossed,
// and nothing is stored. bench/sheet-attacks.ts measures the same against the built gateway.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { SHEETS_SCOPES } from "../spreadsheets/surfaces.ts";
import {
  honestHugeXlsx,
  lyingSheetXlsx,
  manyCellsXlsx,
  manyEntriesXlsx,
  unterminatedQuoteCsv,
  unusedStringsXlsx,
  upload,
} from "./sheet-attacks.ts";

const MB = 1024 * 1024;

/**
 * The uploads, built when this file loads, before the gateway starts (as test/rest/living-documents.test.ts
 * does). Built inside a test they held the event loop, which the in-process gateway shares, for
 * 1.5–3.5 s here and over 5 s in a loaded `npm test`: the next request then went out on a pooled
 * keep-alive connection whose server-side keep-alive timer (5 s) fired in the same turn, and the
 * client read ECONNRESET (10,001 entries and 1,000,000 strings failed so in CI).
 */
const uploads = {
  lying: lyingSheetXlsx(300 * MB, 1_000),
  honest: honestHugeXlsx(1024 * MB),
  entries: manyEntriesXlsx(10_001),
  cells: manyCellsXlsx(1_000_001),
  strings: unusedStringsXlsx(1_500_000),
  cellLimitStrings: unusedStringsXlsx(1_000_000),
  quote: unterminatedQuoteCsv(21 * MB),
};
let tg: TestGateway;
let auth: string;

beforeAll(async () => {
  // A cell limit under 2,000,001 cells, to keep that attack short.
  tg = await startTestGateway({ SHEETS_MAX_CELLS: "1000000" });
  auth = `Bearer ${await tg.key({ user: "uploader", scopes: SHEETS_SCOPES })}`;
}, 60_000);
afterAll(() => tg?.close());

async function refused(bytes: Uint8Array, filename: string): Promise<{ ms: number; details: unknown; message: string }> {
  const started = performance.now();
  const answer = await upload(tg.url, auth, bytes, filename);
  const ms = performance.now() - started;
  expect({ filename, status: answer.status }).toEqual({ filename, status: 413 });
  const body = JSON.parse(answer.body) as { error: { code: string; message: string; details: unknown } };
  expect(body.error.code).toBe("PAYLOAD_TOO_LARGE");
  return { ms, details: body.error.details, message: body.error.message };
}

describe("hostile .xlsx and .csv uploads are refused as soon as a bound is crossed", () => {
  it("a sheet inflating to 300 MB that declares 1,000 bytes: 413 where it crosses 1,000 bytes, in seconds not half a minute", async () => {
    const answer = await refused(uploads.lying, "lie.xlsx");
    expect(answer.details).toEqual({ reason: "declared_size", limit: 1_000 });
    expect(answer.message).toMatch(/xl\/worksheets\/sheet1\.xml inflates past the 1000 bytes its zip directory declares/);
    // 23-60 s before (inflated and parsed up to the 200 MB bound); about a second now, with room for a loaded machine.
    expect(answer.ms).toBeLessThan(15_000);
  }, 60_000);

  it("a sheet honestly declaring 1 GB: 413 before anything is inflated", async () => {
    const answer = await refused(uploads.honest, "huge.xlsx");
    expect(answer.details).toEqual({ limit: 200 * MB });
    expect(answer.ms).toBeLessThan(15_000);
  }, 60_000);

  it("10,001 zip entries: 413 naming the 10,000 bound", async () => {
    expect((await refused(uploads.entries, "entries.xlsx")).details).toEqual({ limit: 10_000 });
  }, 60_000);

  it("cells past SHEETS_MAX_CELLS: 413 at the first cell over, naming the bound", async () => {
    expect((await refused(uploads.cells, "cells.xlsx")).details).toEqual({ reason: "cells", limit: 1_000_000 });
  }, 120_000);

  it("1.5M unused shared strings beside a one-cell sheet: 413 as soon as more strings are counted than the sheet's bytes can refer to", async () => {
    const answer = await refused(uploads.strings, "strings.xlsx");
    // The sheet's XML (its declared size: it cannot inflate past it) over the 20 bytes a string cell takes at least.
    const sheetBytes = Number(/\((\d+) bytes of XML\)/.exec(answer.message)?.[1]);
    expect(sheetBytes).toBeGreaterThan(100);
    expect(answer.details).toEqual({ reason: "shared_strings", limit: Math.floor(sheetBytes / 20) });
  }, 120_000);

  it("as many unused shared strings as the cell limit allows, beside a small sheet: refused the same way (1,000,000 were parsed before)", async () => {
    const answer = await refused(uploads.cellLimitStrings, "strings.xlsx");
    expect(answer.details).toMatchObject({ reason: "shared_strings" });
    expect(answer.message).toMatch(/more than its sheets \(\d+ bytes of XML\) can refer to/);
  }, 120_000);

  it("a CSV whose quote never closes, 21 MB: 413 naming the cell text bound", async () => {
    const answer = await refused(uploads.quote, "quote.csv");
    expect(answer.details).toMatchObject({ reason: "cell_text", limit: 32_767 });
    expect(answer.ms).toBeLessThan(10_000);
  }, 60_000);

  it("nothing was stored", async () => {
    const list = await fetch(`${tg.url}/api/v1/spreadsheets`, { headers: { authorization: auth } });
    expect(((await list.json()) as { spreadsheets: unknown[] }).spreadsheets).toEqual([]);
  });
});

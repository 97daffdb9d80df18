// A job crosses to a spreadsheets worker as JSON text with its bytes and blobs beside it
// (src/spreadsheets/pool/wire.ts): what the worker decodes is the job the pool was given.
import { describe, expect, it } from "vitest";
import type { Job } from "../../src/spreadsheets/pool/protocol.ts";
import { decodeJob, encodeJob } from "../../src/spreadsheets/pool/wire.ts";

const roundTrip = (job: Job) => decodeJob(structuredClone(encodeJob(7, job)));

describe("a spreadsheets job on the wire", () => {
  it("a create's values go as JSON text, and come back as they were", () => {
    const job: Job = {
      kind: "create",
      sheets: [
        { name: "S", values: [[1, "=A1+1", true, null, "text ✓"], [], [2.5]] },
        { name: "C", csv: "a,b\n1,2\n" },
      ],
      input: "parse",
    };
    const message = encodeJob(7, job);
    expect(typeof message.json).toBe("string");
    expect(message.bytes).toBeUndefined();
    expect(roundTrip(job)).toEqual(job);
  });

  it("an import's bytes and a stored version's blobs go beside the text, as bytes", () => {
    const bytes = new Uint8Array([0x50, 0x4b, 3, 4, 255]);
    const imported: Job = { kind: "import", bytes, format: "xlsx", sheetName: "Sheet1", input: "raw" };
    expect(encodeJob(1, imported).json).not.toContain("80");
    expect(roundTrip(imported)).toEqual(imported);
    const blobs: [string, Uint8Array][] = [
      ["root", new Uint8Array([1, 2])],
      ["tile", new Uint8Array([3])],
    ];
    const change: Job = {
      kind: "change",
      base: { workbookId: "wb_1", version: 3, rootHash: "root", blobs },
      change: { kind: "write", range: "A1", values: [[1]], input: "parse" },
      token: 9,
    };
    const message = encodeJob(2, change);
    expect(message.blobs).toBe(blobs);
    expect(message.json).not.toContain("blobs");
    expect(roundTrip(change)).toEqual(change);
    const evaluate: Job = { kind: "evaluate", base: { workbookId: "wb_1", version: 3, rootHash: "root" }, formula: "SUM(A1:B2)" };
    expect(roundTrip(evaluate)).toEqual(evaluate);
  });
});

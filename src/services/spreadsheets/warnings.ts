// A spreadsheet's warnings (docs/spreadsheets-import.md "Warnings"): saved with each version as a
// report blob its manifest root names (src/spreadsheets/report/), read back here for describe and
// for an import replayed by its idempotency key. Kept by root hash: a root never changes.
import { GatewayError } from "../../core/errors.ts";
import type { SpreadsheetWarning } from "../../contract/spreadsheets.ts";
import { decodeReport } from "../../spreadsheets/report/codec.ts";
import { decodeRoot } from "../../spreadsheets/tiles/stored-manifest.ts";
import type { Store } from "../../store/types.ts";

type Blobs = { workbooks: Pick<Store["workbooks"], "getBlobs"> };

/** Warnings by the root hash of their version, least recently used first out. */
export class WarningsCache {
  private readonly entries = new Map<string, SpreadsheetWarning[]>();
  constructor(private readonly max = 512) {}

  async get(store: Blobs, ownerId: string, rootHash: string): Promise<SpreadsheetWarning[]> {
    const cached = this.entries.get(rootHash);
    if (cached) {
      this.entries.delete(rootHash);
      this.entries.set(rootHash, cached);
      return cached;
    }
    const warnings = await readWarnings(store, ownerId, rootHash);
    this.entries.set(rootHash, warnings);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
    return warnings;
  }
}

/** The root, then the report blob it names (none: no warnings). A missing blob is a broken version. */
async function readWarnings(store: Blobs, ownerId: string, rootHash: string): Promise<SpreadsheetWarning[]> {
  const root = (await store.workbooks.getBlobs(ownerId, [rootHash])).get(rootHash);
  if (!root) throw new GatewayError("INTERNAL", "A stored workbook's manifest is missing");
  const reportHash = decodeRoot(root).report;
  if (reportHash === undefined) return [];
  const report = (await store.workbooks.getBlobs(ownerId, [reportHash])).get(reportHash);
  if (!report) throw new GatewayError("INTERNAL", "A stored workbook's report is missing");
  return decodeReport(report).warnings;
}

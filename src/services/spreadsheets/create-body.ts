// A create's large JSON body, parsed and validated inside a spreadsheets worker (issue 37 F6; the
// worker imports this module by the URL the gateway gives the pool, src/spreadsheets/pool/body-parser.ts):
// the same schema and the same errors as a body parsed on the main thread, and the same
// idempotency fingerprint, with none of the 100,000 cells ever on the event loop.
import { createHash } from "node:crypto";
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { jsonObjectOf } from "../../core/json-body.ts";
import { parseInput } from "../../core/validate.ts";
import { createSpreadsheetInputSchema } from "../../contract/spreadsheets.ts";
import type { BodyParser, ParsedCreate } from "../../spreadsheets/pool/body-parser.ts";
import type { NewSheetSource } from "../../spreadsheets/pool/protocol.ts";
import type { InputMode } from "../../spreadsheets/workbook/values.ts";

/** This module's URL, for the pool's workers (a .ts file from the sources, its .js in dist/). */
export const createBodyModule = new URL(`./create-body${extname(fileURLToPath(import.meta.url))}`, import.meta.url).href;

/** What an idempotency key's record compares: the same input makes the same fingerprint. */
export function createFingerprint(
  name: string,
  sheets: readonly unknown[] | undefined,
  mode: InputMode,
  driveFileId: string | undefined,
): string {
  return createHash("sha256")
    .update(JSON.stringify([name, sheets ?? null, mode, driveFileId ?? null]))
    .digest("hex");
}

/** The sheets as the build takes them (no keys whose value is absent). */
export function sheetSources(
  sheets: readonly { name: string; values?: unknown; csv?: unknown; markdown?: unknown }[] | undefined,
): NewSheetSource[] {
  return (sheets ?? [{ name: "Sheet1" }]).map((sheet) => ({
    name: sheet.name,
    ...(sheet.values === undefined ? {} : { values: sheet.values as NewSheetSource["values"] }),
    ...(sheet.csv === undefined ? {} : { csv: sheet.csv as string }),
    ...(sheet.markdown === undefined ? {} : { markdown: sheet.markdown as string }),
  }));
}

export const parseCreateBody: BodyParser["parseCreateBody"] = (bytes, fixed): ParsedCreate => {
  // The services' parseInput adds a size rule for a top-level `markdown` only, a field a create has not.
  const input = parseInput(createSpreadsheetInputSchema, { ...jsonObjectOf(bytes), ...fixed });
  const mode = input.input ?? "parse";
  const small = {
    name: input.name,
    ...(input.input === undefined ? {} : { input: input.input }),
    ...(input.driveFileId === undefined ? {} : { driveFileId: input.driveFileId }),
    ...(input.idempotencyKey === undefined ? {} : { idempotencyKey: input.idempotencyKey }),
  };
  const fingerprint = createFingerprint(input.name, input.sheets, mode, input.driveFileId);
  if (input.driveFileId !== undefined) return { input: small, fingerprint, mode };
  return { input: small, fingerprint, mode, sheets: sheetSources(input.sheets) };
};

// A spreadsheet's defined names (docs/spreadsheets-names.md): listed from the model of the current
// version, and set or deleted as a change like any write — a new version, If-Match/expectedVersion,
// the formulas using the name computed again. The engine does the naming (src/spreadsheets/workbook/names.ts);
// the API says `refersTo` ("=…") where the engine says `formula` (without "=").
import { markAnsweredVersion, type RequestContext } from "../../core/context.ts";
import { GatewayError } from "../../core/errors.ts";
import type { DefinedName, WriteResult } from "../../contract/spreadsheets.ts";
import type { DefinedName as EngineName } from "../../spreadsheets/workbook/names.ts";
import { baseOf, inContractWords, jobOwner, knownId, precheck, sheetsOwner, type SheetsDeps } from "./access.ts";
import { changeCells } from "./cells.ts";
import { allBlobs } from "./stored.ts";

type Expected = { expectedVersion?: number | undefined };

const toName = (name: EngineName): DefinedName => ({
  name: name.name,
  sheet: name.sheet,
  refersTo: `=${name.formula}`,
  ...(name.hidden ? { hidden: true } : {}),
  ...(name.comment ? { comment: name.comment } : {}),
});

export async function listNames(deps: SheetsDeps, ctx: RequestContext, input: { id: string }): Promise<{ names: DefinedName[] }> {
  const ownerId = sheetsOwner(ctx, "read");
  const record = precheck(await deps.store.workbooks.get(ownerId, knownId(input.id)), undefined);
  const output = await deps.pool
    .run({ kind: "names", base: baseOf(record) }, (base) => allBlobs(deps.store, ownerId, base), jobOwner(ctx, ownerId))
    .catch((error: unknown) => Promise.reject(inContractWords(error)));
  if (output.kind !== "names") throw new GatewayError("INTERNAL", "A spreadsheet's names answered something else");
  markAnsweredVersion(ctx, record.version);
  return { names: output.names.map(toName) };
}

export function defineName(
  deps: SheetsDeps,
  ctx: RequestContext,
  input: {
    id: string;
    name: string;
    refersTo: string;
    sheet?: string | undefined;
    comment?: string | undefined;
    hidden?: boolean | undefined;
  } & Expected,
): Promise<WriteResult> {
  const name: EngineName = {
    name: input.name,
    sheet: input.sheet ?? null,
    formula: input.refersTo.startsWith("=") ? input.refersTo.slice(1) : input.refersTo,
    ...(input.hidden ? { hidden: true } : {}),
    ...(input.comment ? { comment: input.comment } : {}),
  };
  return changeCells(deps, ctx, input, { kind: "defineName", name }, "edit");
}

export function deleteName(
  deps: SheetsDeps,
  ctx: RequestContext,
  input: { id: string; name: string; sheet?: string | undefined } & Expected,
): Promise<WriteResult> {
  return changeCells(deps, ctx, input, { kind: "deleteName", name: input.name, sheet: input.sheet ?? null }, "edit");
}

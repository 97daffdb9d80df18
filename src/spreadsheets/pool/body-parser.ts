// What a spreadsheets worker asks of the module that parses a create's JSON body (issue 37 F6):
// the schema is the service layer's (src/services/spreadsheets/create-body.ts), which this layer
// may not import, so the pool is told the module's URL and the worker imports it when a
// createJson job first comes.
import type { InputMode } from "../workbook/values.ts";
import type { CreateInput, NewSheetSource } from "./protocol.ts";

export interface ParsedCreate {
  input: CreateInput;
  /** What the idempotency record compares (the same as a create parsed on the main thread). */
  fingerprint: string;
  /** The sheets to build, unless the input names a drive file. */
  sheets?: NewSheetSource[];
  mode: InputMode;
}

export interface BodyParser {
  /** `{ ...body, ...fixed }` validated as the create's input; throws the error its validation would. */
  parseCreateBody(bytes: Uint8Array, fixed: Record<string, unknown>): ParsedCreate;
}

let loaded: Promise<BodyParser> | undefined;

export function bodyParser(url: string | undefined): Promise<BodyParser> {
  if (!url) return Promise.reject(new Error("This pool was started without a body parser"));
  return (loaded ??= import(url) as Promise<BodyParser>);
}

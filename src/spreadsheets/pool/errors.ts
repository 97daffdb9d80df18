// The engine's error codes in the contract's vocabulary (docs/api.md "Errors").
import type { ErrorCode } from "../../core/errors.ts";
import type { SheetsErrorCode } from "../cells/errors.ts";

const codes: { [C in SheetsErrorCode]: ErrorCode } = {
  BAD_RANGE: "BAD_USER_INPUT",
  UNKNOWN_SHEET: "BAD_USER_INPUT",
  BAD_INPUT: "BAD_USER_INPUT",
  BAD_FORMULA: "BAD_USER_INPUT",
  REFUSED_FORMULA: "BAD_USER_INPUT",
  // A limit of the workbook (cells, characters, sheets), or more computation than one write may take.
  LIMIT: "PAYLOAD_TOO_LARGE",
  BUDGET: "PAYLOAD_TOO_LARGE",
  // Stored data that does not decode is the gateway's fault, not the caller's.
  BAD_TILE: "INTERNAL",
  VALUES_MISSING: "INTERNAL",
};

export const sheetsErrorCode = (code: SheetsErrorCode): ErrorCode => codes[code];

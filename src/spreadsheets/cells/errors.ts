// The typed errors of the spreadsheet engine. They cross a worker-thread boundary (structured clone
// keeps name and message only), so each carries a plain `code` and `details` that the service layer
// maps to the contract's vocabulary: the BAD_* codes and UNKNOWN_SHEET/REFUSED_FORMULA → BAD_USER_INPUT,
// LIMIT → PAYLOAD_TOO_LARGE (naming the limit), BUDGET → the write took more computation than allowed.

export type SheetsErrorCode =
  /** A range that is not A1 notation or lies outside the sheet limits. */
  | "BAD_RANGE"
  /** No sheet of that name. */
  | "UNKNOWN_SHEET"
  /** A value, sheet name, operation or argument the engine cannot take. */
  | "BAD_INPUT"
  /** A formula that does not parse. */
  | "BAD_FORMULA"
  /** A formula the gateway refuses to store: other workbooks, DDE, WEBSERVICE, RTD, CALL, REGISTER.ID, unsafe HYPERLINK. */
  | "REFUSED_FORMULA"
  /** A limit of the workbook: cells, characters a cell, sheets, rows, columns. */
  | "LIMIT"
  /** The computation of one write ran past its step or time budget. */
  | "BUDGET"
  /** A stored tile or manifest that does not decode. */
  | "BAD_TILE"
  /** A read from tiles found formula cells without stored values: load the model, which computes them. */
  | "VALUES_MISSING";

export interface SheetsErrorDetails {
  /** The limit hit, for LIMIT: "SHEETS_MAX_CELLS", "MAX_CELL_TEXT", "MAX_SHEETS", "MAX_ROWS", "MAX_COLUMNS". */
  limit?: string;
  /** The range, sheet, cell or formula at fault. */
  subject?: string;
  [key: string]: unknown;
}

export class SheetsError extends Error {
  readonly code: SheetsErrorCode;
  readonly details: SheetsErrorDetails;

  constructor(code: SheetsErrorCode, message: string, details: SheetsErrorDetails = {}) {
    super(message);
    this.name = "SheetsError";
    this.code = code;
    this.details = details;
  }

  /** What a worker posts back to the thread that maps it (an Error loses its own fields there). */
  toJSON(): { name: "SheetsError"; code: SheetsErrorCode; message: string; details: SheetsErrorDetails } {
    return { name: "SheetsError", code: this.code, message: this.message, details: this.details };
  }
}

export const isSheetsError = (value: unknown): value is SheetsError => value instanceof SheetsError;

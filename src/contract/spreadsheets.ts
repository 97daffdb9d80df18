// zod schemas at the edge of the spreadsheets service (docs/api.md "Spreadsheets"): what callers
// send and receive on REST, GraphQL, tRPC and MCP, and what the OpenAPI document describes.
import { z } from "zod";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../core/paging.ts";
import { strictObject } from "../core/strict-object.ts";
import { editOperationSchema, WARNING_CODES } from "../spreadsheets/index.ts";
import {
  documentNameSchema,
  documentTextSchema,
  idempotencyKeySchema,
  readSharedInputSchema,
  SHARE_DEFAULT_SECONDS,
  trashedDocumentSchema,
  versionNumberSchema,
} from "./documents.ts";
import { uploadedFileSchema } from "./files.ts";

/** Accepts numbers, and numeric strings from query strings; rejects "abc", "1.5", "". */
const integer = (min: number, max: number) =>
  z.preprocess((v) => (typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v) : v), z.number().int().min(min).max(max));

export const SPREADSHEET_ID_PATTERN = /^wb_[0-9A-HJKMNP-TV-Z]{26}$/;
export const isSpreadsheetId = (id: string): boolean => SPREADSHEET_ID_PATTERN.test(id);

/** Any string: an id that cannot exist is NOT_FOUND, as for documents. */
export const spreadsheetIdSchema = z.string().meta({ description: "Spreadsheet id (wb_…)", example: "wb_01JD7Q6R1V2S3T4U5W6X7Y8Z9A" });

export const MAX_CELLS_LIMIT = 100_000;
export const DEFAULT_MAX_CELLS = 10_000;
/** sheets_read's default: a range sized for a model's context. */
export const MCP_DEFAULT_MAX_CELLS = 2_000;
export const SHEETS_UPLOAD_LIMIT_BYTES = 25 * 1024 * 1024;

const expectedVersionSchema = versionNumberSchema
  .optional()
  .meta({ description: "The version the change is based on; another current version is PRECONDITION_FAILED and nothing is written" });

export const inputModeSchema = z.enum(["parse", "raw"]).meta({
  description:
    "parse (default): as a person types (numbers, TRUE/FALSE, ISO dates, 12%, a leading = is a formula); raw: every string stays a string",
});
export const renderModeSchema = z.enum(["value", "formula", "both", "raw", "formatted"]).meta({
  description:
    'value (default): computed values (dates as ISO 8601, numbers to 15 digits); formula: "=…" where a cell has one; both: {value, formula} for formula cells; ' +
    "raw: values with no number format applied (a date cell's serial number, every number unrounded); " +
    'formatted: the text each cell shows in Excel, through its number format ("9.09%", "1,234.50", "1/31/2026"; General as in a standard-width column: "0.090909091", "1.23457E+11")',
});
export const rangeFormatSchema = z.enum(["json", "csv", "markdown"]).meta({ description: "json (default), csv or markdown (a GFM table)" });

/** A cell as a caller writes it: null clears it. */
export const cellInputSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const cellRowsSchema = z.array(z.array(cellInputSchema)).meta({ description: "Rows of cells: [[…], […]]" });

/** A cell as a caller reads it. */
const cellErrorSchema = z.object({ error: z.string() });
const scalarOut = z.union([z.string(), z.number(), z.boolean(), z.null(), cellErrorSchema]);
export const cellOutputSchema = z.union([scalarOut, z.object({ value: scalarOut, formula: z.string() })]);

export const rangeTextSchema = z
  .string()
  .min(1)
  .max(300)
  .meta({ description: "A1 range: A1, B2:D10, Sheet2!A1:C3, 'Q1 Sales'!B2, A:C, 2:5, A5:C" });
export const sheetNameSchema = z.string().min(1).max(31).meta({ description: "A sheet's name (1-31 characters, none of []:*?/\\)" });

const newSheetSchema = strictObject({
  name: sheetNameSchema,
  values: cellRowsSchema.optional(),
  csv: z.string().max(10_000_000).optional().meta({ description: "The sheet as CSV (delimiter sniffed: , ; or tab)" }),
  markdown: z.string().max(10_000_000).optional().meta({ description: "The sheet as a GFM table" }),
}).refine((sheet) => [sheet.values, sheet.csv, sheet.markdown].filter((v) => v !== undefined).length <= 1, {
  message: "give values, csv or markdown, not several",
});

/** A file of the drive product, by its id (create's and import's driveFileId). */
const driveFileIdSchema = z.string().min(1).max(256);

export const createSpreadsheetInputSchema = strictObject({
  name: documentNameSchema.meta({ description: "Spreadsheet name, 1–255 characters after trimming" }),
  sheets: z.array(newSheetSchema).min(1).max(200).optional().meta({ description: "The sheets; default one empty Sheet1" }),
  input: inputModeSchema.optional(),
  driveFileId: driveFileIdSchema
    .optional()
    .meta({ description: "Import this .xlsx or .csv from the drive product (needs an access token)" }),
  idempotencyKey: idempotencyKeySchema.optional().meta({ description: "tRPC/GraphQL/MCP: same as the Idempotency-Key header" }),
})
  .refine((input) => input.driveFileId === undefined || input.sheets === undefined, {
    message: "give sheets or driveFileId, not both",
    path: ["driveFileId"],
  })
  .meta({ id: "CreateSpreadsheetInput" });

/** An import: an uploaded file (multipart, GraphQL Upload), or a drive file by id (the drive product, an access token). */
export const importSpreadsheetInputSchema = strictObject({
  file: uploadedFileSchema.optional(),
  driveFileId: driveFileIdSchema.optional().meta({ description: "A drive file to import (.xlsx or .csv), e.g. from drive_search" }),
  name: documentNameSchema.optional().meta({ description: "Spreadsheet name; default: the file's name without its extension" }),
  input: inputModeSchema.optional(),
  idempotencyKey: idempotencyKeySchema.optional(),
}).refine((input) => (input.file === undefined) !== (input.driveFileId === undefined), {
  message: "give a file or a driveFileId (one of them)",
  path: ["file"],
});

export const listSpreadsheetsInputSchema = strictObject({
  query: z.string().max(255).optional().meta({ description: "Case-insensitive substring of the name" }),
  limit: integer(1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).meta({ description: "1–100, default 50" }),
  cursor: z.string().max(512).optional().meta({ description: "Opaque, from nextCursor" }),
}).meta({ id: "ListSpreadsheetsInput" });

export const spreadsheetRefInputSchema = strictObject({ id: spreadsheetIdSchema });

/** A read's cell budget, defaulting to `fallback` (REST/GraphQL/tRPC 10,000; sheets_read 2,000). */
export const maxCellsWithDefault = (fallback: number) =>
  integer(1, MAX_CELLS_LIMIT)
    .default(fallback)
    .meta({ description: `1–100,000, default ${fallback.toLocaleString("en")}` });
const maxCellsSchema = maxCellsWithDefault(DEFAULT_MAX_CELLS);

export const readRangeInputSchema = strictObject({
  id: spreadsheetIdSchema,
  range: rangeTextSchema,
  render: renderModeSchema.default("value"),
  format: rangeFormatSchema.default("json"),
  maxCells: maxCellsSchema,
  cursor: z.string().max(512).optional().meta({ description: "Opaque, from nextCursor: the next rows of the same range" }),
}).meta({ id: "ReadRangeInput" });

export const writeRangeInputSchema = strictObject({
  id: spreadsheetIdSchema,
  range: rangeTextSchema,
  values: cellRowsSchema,
  input: inputModeSchema.optional(),
  expectedVersion: expectedVersionSchema,
}).meta({ id: "WriteRangeInput" });

export const appendRowsInputSchema = strictObject({
  id: spreadsheetIdSchema,
  sheet: sheetNameSchema.optional().meta({ description: "Default: the first sheet" }),
  values: cellRowsSchema.optional(),
  records: z
    .array(z.record(z.string(), cellInputSchema))
    .optional()
    .meta({ description: "Rows as {header: value} objects, matched to the header row by name" }),
  input: inputModeSchema.optional(),
  expectedVersion: expectedVersionSchema,
  idempotencyKey: idempotencyKeySchema.optional().meta({ description: "tRPC/GraphQL/MCP: same as the Idempotency-Key header" }),
})
  .refine((input) => (input.values === undefined) !== (input.records === undefined), {
    message: "give values or records (one of them)",
    path: ["values"],
  })
  .meta({ id: "AppendRowsInput" });

export { editOperationSchema };
export const editSpreadsheetInputSchema = strictObject({
  id: spreadsheetIdSchema,
  operations: z.array(editOperationSchema).min(1).max(1000),
  expectedVersion: expectedVersionSchema,
}).meta({ id: "EditSpreadsheetInput" });

export const evaluateInputSchema = strictObject({
  id: spreadsheetIdSchema,
  formula: z.string().min(1).max(8192).meta({ description: 'A formula, e.g. "=SUM(B2:B9)"' }),
  sheet: sheetNameSchema.optional().meta({ description: "Relative references start at this sheet's A1; default the first sheet" }),
}).meta({ id: "EvaluateInput" });

export const definedNameTextSchema = z.string().min(1).max(255).meta({
  description: 'A defined name: a letter, "_" or "\\" first, then letters, digits, "." or "_"; not a cell reference',
  example: "TaxRate",
});
const nameScopeSchema = sheetNameSchema
  .optional()
  .meta({ description: "The sheet the name is local to; leave it out for the whole workbook" });

export const defineNameInputSchema = strictObject({
  id: spreadsheetIdSchema,
  name: definedNameTextSchema,
  refersTo: z.string().min(1).max(8192).meta({
    description:
      'What the name stands for, as a formula: "=Data!$B$2:$B$20", "=0.07", "=SUM(Data!$B:$B)", or "=LAMBDA(x, x*1.07)" (then called like a function)',
  }),
  sheet: nameScopeSchema,
  comment: z.string().max(255).optional(),
  hidden: z.boolean().optional().meta({ description: "Hidden from Excel's Name Manager" }),
  expectedVersion: expectedVersionSchema,
}).meta({ id: "DefineNameInput" });

export const deleteNameInputSchema = strictObject({
  id: spreadsheetIdSchema,
  name: definedNameTextSchema,
  sheet: nameScopeSchema,
  expectedVersion: expectedVersionSchema,
}).meta({ id: "DeleteNameInput" });

export const downloadSpreadsheetInputSchema = strictObject({
  id: spreadsheetIdSchema,
  format: z.enum(["xlsx", "csv"]).default("xlsx"),
  sheet: sheetNameSchema.optional().meta({ description: "With format=csv: which sheet (default the first)" }),
});

export const renameSpreadsheetInputSchema = strictObject({
  id: spreadsheetIdSchema,
  name: documentNameSchema,
  expectedVersion: expectedVersionSchema,
});
export const deleteSpreadsheetInputSchema = strictObject({ id: spreadsheetIdSchema, expectedVersion: expectedVersionSchema });
export const listSpreadsheetVersionsInputSchema = strictObject({
  id: spreadsheetIdSchema,
  limit: integer(1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  cursor: z.string().max(512).optional(),
});
export const spreadsheetVersionInputSchema = strictObject({ id: spreadsheetIdSchema, version: versionNumberSchema });
export const restoreSpreadsheetVersionInputSchema = strictObject({
  id: spreadsheetIdSchema,
  version: versionNumberSchema,
  expectedVersion: expectedVersionSchema,
});
export const createSpreadsheetShareInputSchema = strictObject({
  id: spreadsheetIdSchema,
  expiresInSeconds: integer(60, 31_536_000).default(SHARE_DEFAULT_SECONDS).meta({ description: "60–31,536,000, default 7 days" }),
});
export const revokeSpreadsheetShareInputSchema = strictObject({ id: spreadsheetIdSchema, shareId: z.string().max(64) });

// ---- outputs ---------------------------------------------------------------------------------

export const worksheetSchema = z
  .object({
    name: z.string(),
    index: z.number().int(),
    rows: z.number().int(),
    columns: z.number().int(),
    usedRange: z.string().nullable().meta({ description: 'e.g. "A1:D20"; null when the sheet is empty' }),
    header: z.array(cellOutputSchema).nullable().meta({ description: "The first row, when it looks like a header" }),
  })
  .meta({ id: "Worksheet" });

export const spreadsheetSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    version: z.number().int().meta({ description: "1 on create, +1 on every change; the ETag follows it" }),
    createdAt: z.string().meta({ format: "date-time" }),
    updatedAt: z.string().meta({ format: "date-time" }),
    sizeBytes: z.number().int(),
    cells: z.number().int().meta({ description: "Non-empty cells" }),
    sheets: z.array(worksheetSchema),
    url: z.string(),
    downloadUrl: z.string(),
  })
  .meta({ id: "Spreadsheet" });

const rawCellSchema = z
  .union([z.string(), z.number(), z.boolean(), z.null(), cellErrorSchema])
  .meta({ description: "A cell's value with no number format applied (as render=raw reads it)" });

export const spreadsheetWarningSchema = z
  .object({
    code: z.enum(WARNING_CODES).meta({
      description:
        "VALUE_DIFFERS: formula cells whose value differs from the one the file's writer saved; UNSUPPORTED_FUNCTION: a function the gateway does not compute (#NAME?); " +
        "UNKNOWN_NAME: a name that is neither a function the gateway computes nor a name the workbook defines; NOT_COMPUTED: formulas kept but not computed; EXTERNAL_LINK: links to other workbooks (values kept, formulas not); " +
        "FORMULA_REFUSED: DDE, WEBSERVICE… (values kept, formulas not); DATA_TABLE: what-if data tables kept as values; NOT_CHECKED: no saved value to compare with; NOT_KEPT: a part of the file not kept",
    }),
    message: z.string().meta({ description: "What happened and what it means for the values, in one sentence" }),
    count: z.number().int().meta({ description: "Cells concerned (NOT_KEPT: items of the file)" }),
    cells: z.array(z.string()).meta({ description: 'The first cells (or ranges) concerned, e.g. "Sheet1!B2", at most 5' }),
    function: z.string().optional().meta({ description: "UNSUPPORTED_FUNCTION: the function" }),
    name: z.string().optional().meta({ description: "UNKNOWN_NAME: the name" }),
    feature: z
      .string()
      .optional()
      .meta({ description: "NOT_KEPT: charts, images, pivotTables, comments, dataConnections, conditionalFormatting…" }),
    checked: z
      .number()
      .int()
      .optional()
      .meta({ description: "VALUE_DIFFERS: formula cells compared with the writer's values at the import" }),
    differences: z
      .array(
        z.object({ cell: z.string(), formula: z.string(), expected: rawCellSchema, got: rawCellSchema }).meta({ id: "CellDifference" }),
      )
      .optional()
      .meta({ description: "VALUE_DIFFERS: the first 10 cells, each with the writer's value (expected) and the gateway's (got)" }),
    links: z.array(z.string()).optional().meta({ description: 'EXTERNAL_LINK: the other workbooks, "[1] path"' }),
  })
  .meta({ id: "SpreadsheetWarning" });
export const spreadsheetWarningsSchema = z.array(spreadsheetWarningSchema).meta({
  description:
    "What the gateway did not do as the file's writer (Excel, LibreOffice…) did: distrust the cells named. Kept with the spreadsheet; later writes update it.",
});

/** An import's or a create's answer, and describe's: the record with the spreadsheet's warnings. */
export const spreadsheetWithWarningsSchema = spreadsheetSchema
  .extend({ warnings: spreadsheetWarningsSchema })
  .meta({ id: "SpreadsheetWithWarnings" });

export const spreadsheetListSchema = z
  .object({ spreadsheets: z.array(spreadsheetSchema), nextCursor: z.string().nullable() })
  .meta({ id: "SpreadsheetList" });

export const cellRangeSchema = z
  .object({
    range: z.string().meta({ description: 'What was read, e.g. "Sheet1!A1:C3"' }),
    values: z.array(z.array(cellOutputSchema)),
    truncated: z.boolean(),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: "CellRange" });

/** A range read as text (format csv or markdown); REST answers the text itself. */
export const cellRangeTextSchema = z.object({
  range: z.string(),
  format: z.enum(["csv", "markdown"]),
  text: z.string(),
  truncated: z.boolean(),
  nextCursor: z.string().nullable(),
});
export const readRangeOutputSchema = z.union([cellRangeSchema, cellRangeTextSchema]);

export const writeResultSchema = z
  .object({
    spreadsheet: spreadsheetSchema,
    updatedRange: z.string().nullable(),
    updatedCells: z.number().int(),
    recalculatedCells: z.number().int().meta({ description: "Formula cells recomputed" }),
    warnings: z.array(z.string()),
  })
  .meta({ id: "SpreadsheetWriteResult" });

export const definedNameSchema = z
  .object({
    name: z.string(),
    sheet: z.string().nullable().meta({ description: "The sheet the name is local to; null for the whole workbook" }),
    refersTo: z.string().meta({ description: 'What it stands for, e.g. "=Data!$B$2:$B$20"' }),
    hidden: z.boolean().optional(),
    comment: z.string().optional(),
  })
  .meta({ id: "DefinedName" });
export const definedNameListSchema = z.object({ names: z.array(definedNameSchema) }).meta({ id: "DefinedNameList" });

export const evaluateResultSchema = z.object({ value: cellOutputSchema }).meta({ id: "EvaluateResult" });

export const spreadsheetVersionSchema = z
  .object({
    version: z.number().int(),
    name: z.string(),
    createdAt: z.string().meta({ format: "date-time" }),
    createdBy: z.string(),
    sizeBytes: z.number().int(),
    cells: z.number().int(),
    source: z.enum(["create", "import", "write", "append", "edit", "rename", "restore"]),
  })
  .meta({ id: "SpreadsheetVersion" });

export const spreadsheetVersionListSchema = z
  .object({ versions: z.array(spreadsheetVersionSchema), nextCursor: z.string().nullable() })
  .meta({ id: "SpreadsheetVersionList" });

/** A version's record: the spreadsheet as it was (its sheets then). */
export const spreadsheetAtVersionSchema = spreadsheetSchema.extend({ versionInfo: spreadsheetVersionSchema });

export type Spreadsheet = z.output<typeof spreadsheetSchema>;
export type SpreadsheetWarning = z.output<typeof spreadsheetWarningSchema>;
export type SpreadsheetWithWarnings = z.output<typeof spreadsheetWithWarningsSchema>;
export type Worksheet = z.output<typeof worksheetSchema>;
export type SpreadsheetList = z.output<typeof spreadsheetListSchema>;
export type CellRange = z.output<typeof cellRangeSchema>;
export type CellRangeText = z.output<typeof cellRangeTextSchema>;
export type WriteResult = z.output<typeof writeResultSchema>;
export type DefinedName = z.output<typeof definedNameSchema>;
export type SpreadsheetVersion = z.output<typeof spreadsheetVersionSchema>;
export type SpreadsheetVersionList = z.output<typeof spreadsheetVersionListSchema>;

// ---- share links and the trash, across documents and spreadsheets ----------------------------

/** GET /api/v1/shared/{token}: a document's read options, or a spreadsheet's range and cell budget. */
export const readSharedAnyInputSchema = strictObject({
  token: z.string().max(128),
  maxChars: readSharedInputSchema.shape.maxChars,
  format: readSharedInputSchema.shape.format,
  maxCells: maxCellsSchema,
  range: rangeTextSchema.optional().meta({ description: "A spreadsheet's range; default its first sheet's used range" }),
  render: renderModeSchema.default("value"),
});

export const sharedSpreadsheetSchema = z
  .object({
    kind: z.literal("spreadsheet"),
    spreadsheet: spreadsheetSchema,
    range: z.string(),
    values: z.array(z.array(cellOutputSchema)),
    truncated: z.boolean(),
  })
  .meta({ id: "SharedSpreadsheet" });
export const sharedReadSchema = z.union([documentTextSchema, sharedSpreadsheetSchema]);

/** A trashed document or spreadsheet, as GET /api/v1/trash lists them together. */
export const trashEntrySchema = z.union([
  trashedDocumentSchema.extend({ kind: z.literal("document") }),
  spreadsheetSchema.extend({ kind: z.literal("spreadsheet"), deletedAt: z.string().meta({ format: "date-time" }) }),
]);
export const workspaceTrashSchema = z
  .object({ documents: z.array(trashEntrySchema), nextCursor: z.string().nullable() })
  .meta({ id: "WorkspaceTrash", description: "Documents and spreadsheets in the trash, newest first, each with its kind" });
export const trashRefInputSchema = strictObject({
  id: z.string().meta({ description: "A document's (doc_…) or a spreadsheet's (wb_…) id" }),
});
export type WorkspaceTrash = z.output<typeof workspaceTrashSchema>;
export type TrashEntry = z.output<typeof trashEntrySchema>;

// parseInput for the document services and the tools that take document input: core's, told that
// markdown over its limit is PAYLOAD_TOO_LARGE, not BAD_USER_INPUT (docs/api.md "REST documents interface").
import type { z } from "zod";
import { parseInput as parseWith, type SizeLimit } from "../core/validate.ts";
import { MARKDOWN_LIMIT, withoutTrailingLineEndings } from "../contract/documents.ts";

const documentSizes: readonly SizeLimit[] = [
  { field: "markdown", limit: MARKDOWN_LIMIT, measure: (markdown) => withoutTrailingLineEndings(markdown).length },
];

export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  return parseWith(schema, value, documentSizes);
}

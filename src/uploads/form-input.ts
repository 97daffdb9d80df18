// A multipart form (REST, tRPC FormData) as an operation's input: its text fields, and its file
// part under the field the row's upload names. Numbers stay strings here: the row's schema
// coerces them, as it does a query string's.
import { z } from "zod";
import { GatewayError } from "../core/errors.ts";
import type { AnyOperation } from "../services/operations/index.ts";

/** The input fields a row's schema names (its shape's keys), for a form's unknown-field message. */
function fieldsOf(op: AnyOperation): string[] | undefined {
  return op.input instanceof z.ZodObject ? Object.keys(op.input.shape) : undefined;
}

export function formInput(form: FormData, op: AnyOperation, fixed: Record<string, unknown> = {}): Record<string, unknown> {
  const upload = op.upload;
  const fileField = upload?.field ?? "file";
  const allowed = fieldsOf(op)?.filter((key) => !(key in fixed));
  const input: Record<string, unknown> = {};
  for (const [key, value] of form.entries()) {
    if (key === fileField) {
      if (typeof value === "string") throw new GatewayError("BAD_USER_INPUT", `${key}: must be a file part, not a text field`);
      input[key] = value;
      continue;
    }
    if (allowed && !allowed.includes(key)) {
      throw new GatewayError(
        "BAD_USER_INPUT",
        `${key}: unknown field; expected ${[fileField, ...allowed.filter((f) => f !== fileField)].join(", ")}`,
      );
    }
    if (typeof value !== "string") throw new GatewayError("BAD_USER_INPUT", `${key}: must be a text field`);
    input[key] = value;
  }
  if (upload && !upload.optional && input[fileField] === undefined) {
    throw new GatewayError("BAD_USER_INPUT", `${fileField}: a file part is required`);
  }
  return { ...input, ...fixed };
}

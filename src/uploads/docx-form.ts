// A .docx upload as the documents service takes it, from a multipart form (REST, tRPC) or a
// GraphQL Upload: the file's bytes and its name, plus the text fields beside it.
import { GatewayError } from "../core/errors.ts";
import type { UploadedDocx } from "../services/documents.ts";

/** The bytes of an uploaded file (the spooler's files are read from disk once, here). */
export async function docxOf(file: Blob): Promise<UploadedDocx> {
  const name = (file as { name?: unknown }).name;
  return { bytes: new Uint8Array(await file.arrayBuffer()), filename: typeof name === "string" && name ? name : undefined };
}

/** The `file` part of a form, as a .docx upload. */
export async function formDocx(form: FormData): Promise<UploadedDocx> {
  const file = form.get("file");
  if (!(file instanceof Blob)) throw new GatewayError("BAD_USER_INPUT", "file: a .docx file part is required");
  return docxOf(file);
}

/** A form's text fields other than `file`, as an input object (numbers stay strings: the service's schemas coerce them). */
export function formFields(form: FormData, allowed: readonly string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of form.entries()) {
    if (key === "file") continue;
    if (!allowed.includes(key))
      throw new GatewayError("BAD_USER_INPUT", `${key}: unknown field; expected ${["file", ...allowed].join(", ")}`);
    if (typeof value !== "string") throw new GatewayError("BAD_USER_INPUT", `${key}: must be a text field`);
    fields[key] = value;
  }
  return fields;
}

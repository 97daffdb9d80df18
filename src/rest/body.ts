// A REST request's input: its JSON body, or its multipart form streamed to disk (uploads).
import type { Context } from "hono";
import { GatewayError } from "../core/errors.ts";
import type { HttpEnv } from "../http/env.ts";
import { nodeBodyText } from "../http/node.ts";
import { isMultipartType, spoolForm, type UploadLimits } from "../uploads/index.ts";

export const isMultipart = (c: Context<HttpEnv>): boolean => isMultipartType(c.req.header("content-type"));

/** Whether the request has no body at all (a POST that takes an optional one). */
export const hasNoBody = (c: Context<HttpEnv>): boolean => c.req.header("content-length") === "0" || !c.req.header("content-type");

/** The JSON body as an object: 415 for another content type, 400 for invalid JSON or a non-object. */
export async function readJsonObject(c: Context<HttpEnv>, alternative = ""): Promise<Record<string, unknown>> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
    throw new GatewayError("UNSUPPORTED_MEDIA_TYPE", `Send the body as application/json${alternative}`);
  }
  let body: unknown;
  try {
    const text = await nodeBodyText(c);
    body = text === undefined ? await c.req.json() : JSON.parse(text);
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw new GatewayError("BAD_USER_INPUT", "The body is not valid JSON");
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new GatewayError("BAD_USER_INPUT", "The body must be a JSON object");
  return body as Record<string, unknown>;
}

/** A multipart body streamed to temp files under `limits`; removed after `use`. */
export async function withForm<T>(c: Context<HttpEnv>, limits: UploadLimits, use: (form: FormData) => Promise<T>): Promise<T> {
  const { form, cleanup } = await spoolForm(c.req.raw, limits);
  try {
    return await use(form);
  } finally {
    await cleanup();
  }
}

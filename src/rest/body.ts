// A REST request's input: its JSON body, or its multipart form streamed to disk (uploads).
import type { Context } from "hono";
import { GatewayError } from "../core/errors.ts";
import { LARGE_JSON_BODY_BYTES, NOT_AN_OBJECT, NOT_JSON } from "../core/json-body.ts";
import type { HttpEnv } from "../http/env.ts";
import { nodeBindings, nodeBodyBytes, nodeBodyText } from "../http/node.ts";
import { isMultipartType, spoolForm, type UploadLimits } from "../uploads/index.ts";

export const isMultipart = (c: Context<HttpEnv>): boolean => isMultipartType(c.req.header("content-type"));

/** Whether the request has no body at all (a POST that takes an optional one). */
export const hasNoBody = (c: Context<HttpEnv>): boolean => c.req.header("content-length") === "0" || !c.req.header("content-type");

/** The JSON body as an object: 415 for another content type, 400 for invalid JSON or a non-object. */
export async function readJsonObject(c: Context<HttpEnv>, alternative = ""): Promise<Record<string, unknown>> {
  requireJson(c, alternative);
  let body: unknown;
  try {
    const text = await nodeBodyText(c);
    body = text === undefined ? await c.req.json() : JSON.parse(text);
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw new GatewayError("BAD_USER_INPUT", NOT_JSON);
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new GatewayError("BAD_USER_INPUT", NOT_AN_OBJECT);
  return body as Record<string, unknown>;
}

/** 415 unless the body is declared JSON. */
function requireJson(c: Context<HttpEnv>, alternative: string): void {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
    throw new GatewayError("UNSUPPORTED_MEDIA_TYPE", `Send the body as application/json${alternative}`);
  }
}

/**
 * A JSON body declared longer than LARGE_JSON_BODY_BYTES, as its bytes, unparsed (the operation
 * parses it off the event loop); undefined for a smaller one, or one Node cannot hand over as it is.
 */
export async function largeJsonBytes(c: Context<HttpEnv>, alternative = ""): Promise<Uint8Array | undefined> {
  if (Number(c.req.header("content-length") ?? 0) <= LARGE_JSON_BODY_BYTES) return undefined;
  requireJson(c, alternative);
  return nodeBodyBytes(c);
}

/** A multipart body streamed to temp files under `limits`; removed after `use`. */
export async function withForm<T>(c: Context<HttpEnv>, limits: UploadLimits, use: (form: FormData) => Promise<T>): Promise<T> {
  const { form, cleanup } = await spoolForm(c.req.raw, limits, { incoming: nodeBindings(c)?.incoming });
  try {
    return await use(form);
  } finally {
    await cleanup();
  }
}

// The request id, one implementation for both front doors (./app.ts's middleware and the Node fast
// path, ./fast-path.ts): taken from the caller's X-Request-Id when it is sane, else made, and
// named on the response.
import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";

export const REQUEST_ID_HEADER = "X-Request-Id";

const sane = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is sane (no header injection, bounded), else a new one. */
export const requestIdFrom = (header: string | undefined | null): string => (header && sane.test(header) ? header : randomUUID());

/** Names the id on a Node response about to be written by a surface (Node merges it into writeHead). */
export const stampRequestId = (outgoing: ServerResponse, requestId: string): void => {
  outgoing.setHeader(REQUEST_ID_HEADER, requestId);
};

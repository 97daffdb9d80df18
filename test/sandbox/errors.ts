// Upstream-style errors: {"error":{"code","message"}} with the usual HTTP statuses.

const CODES: Record<number, string> = {
  400: "invalid_argument",
  401: "unauthenticated",
  403: "permission_denied",
  404: "not_found",
  405: "method_not_allowed",
  408: "request_timeout",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "unprocessable_entity",
  429: "rate_limited",
  500: "internal",
  502: "bad_gateway",
  503: "unavailable",
  504: "deadline_exceeded",
};

export function codeForStatus(status: number): string {
  return CODES[status] ?? (status >= 500 ? "internal" : "error");
}

export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, code: string = codeForStatus(status), headers: Record<string, string> = {}) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

export function errorBody(code: string, message: string): { error: { code: string; message: string } } {
  return { error: { code, message } };
}

export const notFound = (what: string): HttpError => new HttpError(404, `${what} not found`);
export const badRequest = (message: string): HttpError => new HttpError(400, message);

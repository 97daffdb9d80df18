import type { DocumentsDriver, Outcome } from "./driver.ts";

async function outcome<T>(response: Response): Promise<Outcome<T>> {
  const body = (await response.json()) as T & { error?: { code: string; message: string } };
  if (response.ok) return { ok: true, data: body };
  return {
    ok: false,
    code: body.error?.code ?? "?",
    message: body.error?.message ?? "",
    httpStatus: response.status,
    headers: response.headers,
  };
}

const headers = (auth: string | null, extra: Record<string, string> = {}) => ({ ...(auth ? { authorization: auth } : {}), ...extra });

export function restDriver(baseUrl: string): DocumentsDriver {
  return {
    surface: "rest",
    async create(auth, args, idempotencyKey) {
      const response = await fetch(`${baseUrl}/api/v1/documents`, {
        method: "POST",
        headers: headers(auth, {
          "content-type": "application/json",
          ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
        }),
        body: JSON.stringify(args),
      });
      return outcome(response);
    },
    async list(auth, args = {}) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(args)) if (v !== undefined) params.set(k, String(v));
      return outcome(await fetch(`${baseUrl}/api/v1/documents?${params}`, { headers: headers(auth) }));
    },
    async read(auth, id, maxChars) {
      const query = maxChars === undefined ? "" : `?maxChars=${encodeURIComponent(String(maxChars))}`;
      return outcome(await fetch(`${baseUrl}/api/v1/documents/${encodeURIComponent(id)}${query}`, { headers: headers(auth) }));
    },
  };
}

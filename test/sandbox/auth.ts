// Bearer checking: the API base and each tenant have their own set of valid tokens ("*" = any token).
import { HttpError } from "./errors.ts";

export function checkBearer(authorization: string | undefined, valid: ReadonlySet<string>, realm: string): void {
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(authorization ?? "");
  if (!match) {
    throw new HttpError(
      401,
      authorization ? "malformed Authorization header (expected Bearer <token>)" : "missing bearer token",
      "unauthenticated",
      {
        "www-authenticate": `Bearer realm="${realm}"`,
      },
    );
  }
  const token = match[1] as string;
  if (!valid.has(token) && !valid.has("*")) {
    throw new HttpError(401, `invalid bearer token for ${realm}`, "unauthenticated", {
      "www-authenticate": `Bearer realm="${realm}", error="invalid_token"`,
    });
  }
}

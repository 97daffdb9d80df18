// `workspace-gateway keys create|list|revoke|sign-in-link|sessions`: personal API keys, the owner's
// application's one-time sign-in links and its sessions, straight against the store.
import { parseArgs } from "node:util";
import { createApiKey, parseDuration } from "../auth/api-keys.ts";
import { createSignInLink, signInLinkUrl } from "../auth/sessions.ts";
import type { KeyStore, SessionStore } from "../store/types.ts";
import { TENANT_ID } from "../../adapters/tenants.ts";

export const keysUsage = `Usage:
  workspace-gateway keys create --user <id> [--tenant <id>] [--scopes docs:read,docs:write,sheets:read,sheets:write] [--expires-in 90d] [--json] [--init]
  workspace-gateway keys list [--user <id>] [--json]
  workspace-gateway keys revoke <keyId|sessionId>
  workspace-gateway keys sign-in-link --user <id> [--tenant <id>] [--scopes …] [--expires-in 10m]
  workspace-gateway keys sessions [--user <id>] [--json]

Revoking a key ends the application's sessions it opened; a session id (ses_…, from keys sessions)
ends that session. A sign-in link opens the owner's application once (default 10 minutes, at
most 24h); it is printed as an absolute URL, on PUBLIC_URL when set.

The keys go to the store the server uses: run with the server's DATA_DIR (or DATABASE_URL), from
the same directory or with an absolute path. Without --init, a DATA_DIR holding no store is an
error rather than a new empty store the server never reads.`;

export class UsageError extends Error {
  override name = "UsageError";
}

/** A command used right that names something the store does not have: one line, not the usage. */
export class KeyNotFoundError extends Error {
  override name = "KeyNotFoundError";
}

export interface KeysOptions {
  /** Where sign-in links point: PUBLIC_URL, or the server's own address. */
  baseUrl: string;
}

const scopesOption = (scopes: string | undefined) =>
  scopes
    ? {
        scopes: scopes
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      }
    : {};

/** Who a new key or sign-in link is for, and its scopes: --user, --tenant, --scopes. */
function grantOf(command: string, values: { user?: string | undefined; tenant?: string | undefined; scopes?: string | undefined }) {
  if (!values.user) throw new UsageError(`keys ${command} needs --user <id>`);
  // A tenant the gateway would refuse on every tenant call is better refused now.
  if (values.tenant !== undefined && !TENANT_ID.test(values.tenant)) {
    throw new UsageError(`--tenant must match [a-z0-9][a-z0-9-]{0,62}, got ${JSON.stringify(values.tenant)}`);
  }
  return { userId: values.user, tenant: values.tenant ?? null, ...scopesOption(values.scopes) };
}

/** `keys revoke`: a key (and the sessions it opened), or one session. */
async function revoke(store: KeyStore & SessionStore, id: string, out: (line: string) => void): Promise<void> {
  const at = new Date().toISOString();
  if (id.startsWith("ses_")) {
    if (!(await store.endSession(id, at)))
      throw new KeyNotFoundError(`No live session with id ${id} in this store (keys sessions shows them)`);
    out(`Ended ${id}`);
    return;
  }
  if (!(await store.revokeApiKey(id, at))) throw new KeyNotFoundError(`No key with id ${id} in this store (keys list shows the ids)`);
  const ended = await store.endSessionsOfKey(id, at);
  out(ended > 0 ? `Revoked ${id} (and ended ${ended} session${ended === 1 ? "" : "s"} it opened)` : `Revoked ${id}`);
}

async function sessions(store: SessionStore, user: string | undefined, json: boolean, out: (line: string) => void): Promise<void> {
  const rows = (await store.listSessions(new Date().toISOString(), user)).map((s) => ({
    id: s.id,
    userId: s.userId,
    tenant: s.tenant,
    scopes: s.scopes,
    method: s.method,
    keyId: s.keyId,
    createdAt: s.createdAt,
    expiresAt: s.expiresAt,
  }));
  if (json) out(JSON.stringify(rows));
  else if (rows.length === 0) out("No sessions.");
  else {
    out("ID\tUSER\tTENANT\tSIGNED IN WITH\tEXPIRES");
    for (const r of rows) out(`${r.id}\t${r.userId}\t${r.tenant ?? "-"}\t${r.keyId ?? r.method}\t${r.expiresAt}`);
  }
}

export async function runKeys(
  store: KeyStore & SessionStore,
  argv: string[],
  out: (line: string) => void,
  options: KeysOptions = { baseUrl: "http://127.0.0.1:4000" },
): Promise<void> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      user: { type: "string" },
      tenant: { type: "string" },
      scopes: { type: "string" },
      "expires-in": { type: "string" },
      json: { type: "boolean", default: false },
    },
  });

  switch (command) {
    case "create": {
      const { key, record } = await createApiKey(store, {
        ...grantOf("create", values),
        expiresInMs: values["expires-in"] ? parseDuration(values["expires-in"]) : null,
      });
      if (values.json) {
        out(
          JSON.stringify({
            key,
            id: record.id,
            userId: record.userId,
            tenant: record.tenant,
            scopes: record.scopes,
            expiresAt: record.expiresAt,
          }),
        );
      } else {
        out(key);
        process.stderr.write(
          `Created ${record.id} for user ${record.userId} (scopes: ${record.scopes.join(" ") || "none"}; ` +
            `expires: ${record.expiresAt ?? "never"}). The key is shown once: store it now.\n`,
        );
      }
      return;
    }
    case "list": {
      const keys = await store.listApiKeys(values.user);
      const rows = keys.map((k) => ({
        id: k.id,
        userId: k.userId,
        tenant: k.tenant,
        scopes: k.scopes,
        prefix: `${k.prefix}…`,
        createdAt: k.createdAt,
        expiresAt: k.expiresAt,
        revokedAt: k.revokedAt,
      }));
      if (values.json) out(JSON.stringify(rows));
      else if (rows.length === 0) out("No keys.");
      else {
        out("ID\tUSER\tTENANT\tSCOPES\tPREFIX\tSTATUS");
        for (const r of rows)
          out(
            `${r.id}\t${r.userId}\t${r.tenant ?? "-"}\t${r.scopes.join(",")}\t${r.prefix}\t${r.revokedAt ? `revoked ${r.revokedAt}` : r.expiresAt ? `expires ${r.expiresAt}` : "active"}`,
          );
      }
      return;
    }
    case "revoke": {
      const id = positionals[0];
      if (!id) throw new UsageError("keys revoke needs a key id (see keys list) or a session id (see keys sessions)");
      return revoke(store, id, out);
    }
    case "sign-in-link": {
      const { token, record } = await createSignInLink(store, {
        ...grantOf("sign-in-link", values),
        ...(values["expires-in"] ? { expiresInMs: parseDuration(values["expires-in"]) } : {}),
      });
      out(signInLinkUrl(options.baseUrl, token));
      process.stderr.write(`Sign-in link for user ${record.userId}: opens the application once, until ${record.expiresAt}.\n`);
      return;
    }
    case "sessions":
      return sessions(store, values.user, values.json, out);
    default:
      throw new UsageError(command ? `Unknown keys command "${command}"` : "keys needs a command");
  }
}

// `workspace-gateway keys create|list|revoke`: personal API keys, straight against the store.
import { parseArgs } from "node:util";
import { createApiKey, parseDuration } from "../auth/api-keys.ts";
import type { KeyStore } from "../store/types.ts";
import { TENANT_ID } from "../../adapters/tenants.ts";

export const keysUsage = `Usage:
  workspace-gateway keys create --user <id> [--tenant <id>] [--scopes docs:read,docs:write,sheets:read,sheets:write] [--expires-in 90d] [--json] [--init]
  workspace-gateway keys list [--user <id>] [--json]
  workspace-gateway keys revoke <keyId>

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

export async function runKeys(store: KeyStore, argv: string[], out: (line: string) => void): Promise<void> {
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
      if (!values.user) throw new UsageError("keys create needs --user <id>");
      // A tenant the gateway would refuse on every tenant call is better refused now.
      if (values.tenant !== undefined && !TENANT_ID.test(values.tenant)) {
        throw new UsageError(`--tenant must match [a-z0-9][a-z0-9-]{0,62}, got ${JSON.stringify(values.tenant)}`);
      }
      const { key, record } = await createApiKey(store, {
        userId: values.user,
        tenant: values.tenant ?? null,
        ...(values.scopes
          ? {
              scopes: values.scopes
                .split(",")
                .map((s) => s.trim())
                .filter(Boolean),
            }
          : {}),
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
      if (!id) throw new UsageError("keys revoke needs a key id (see keys list)");
      if (!(await store.revokeApiKey(id, new Date().toISOString()))) {
        throw new KeyNotFoundError(`No key with id ${id} in this store (keys list shows the ids)`);
      }
      out(`Revoked ${id}`);
      return;
    }
    default:
      throw new UsageError(command ? `Unknown keys command "${command}"` : "keys needs a command");
  }
}

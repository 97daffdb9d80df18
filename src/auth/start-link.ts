// `npm start`'s way into the owner's application (docs/app.md "Your first sign-in"): on the
// embedded store of one machine, the start-up line carries a one-time sign-in link for the local
// owner, so the two commands of the quick start end signed in. Anywhere the address can be reached
// from elsewhere, or the store is shared by replicas (PostgreSQL), logs travel further than the
// person who started the process: no link is made there, and the line names the CLI command instead.
import { isLoopbackHost } from "../core/address.ts";
import type { Config } from "../core/config.ts";
import type { SessionStore } from "../store/types.ts";
import { createSignInLink, signInLinkUrl } from "./sessions.ts";

/** The local owner the link signs in: the user the README's first key is made for (`keys create --user me`). */
export const LOCAL_OWNER = "me";

/** Fields of the start-up log line: the link, a pointer to the CLI, or nothing when turned off. */
export type StartUpSignIn =
  | { signInLink: string; signInLinkUser: string; signInLinkExpiresAt: string }
  | { signIn: string; signInLinkWithheld: string }
  | Record<string, never>;

/** Why no link is printed on start-up, or undefined when one is. */
export function withheldBecause(config: Pick<Config, "HOST" | "PUBLIC_URL">, storeKind: "sqlite" | "postgres"): string | undefined {
  if (storeKind !== "sqlite") return "the store is PostgreSQL (DATABASE_URL)";
  if (!isLoopbackHost(config.HOST)) return `HOST ${config.HOST} is not a loopback address`;
  if (config.PUBLIC_URL && !isLoopbackHost(new URL(config.PUBLIC_URL).hostname)) return "PUBLIC_URL is not a loopback address";
  return undefined;
}

/**
 * Makes the start-up sign-in link (10 minutes, one use, every key scope, no tenant) when the
 * gateway is local, or says how to get one. `base`: PUBLIC_URL, else the address it listens on.
 */
export async function startUpSignIn(
  store: SessionStore,
  config: Pick<Config, "HOST" | "PUBLIC_URL" | "APP_SIGN_IN_LINK_ON_START">,
  storeKind: "sqlite" | "postgres",
  base: string,
): Promise<StartUpSignIn> {
  if (!config.APP_SIGN_IN_LINK_ON_START) return {};
  const withheld = withheldBecause(config, storeKind);
  if (withheld) return { signIn: "npx workspace-gateway keys sign-in-link --user <id>", signInLinkWithheld: withheld };
  const { token, record } = await createSignInLink(store, { userId: LOCAL_OWNER });
  return { signInLink: signInLinkUrl(base, token), signInLinkUser: record.userId, signInLinkExpiresAt: record.expiresAt };
}

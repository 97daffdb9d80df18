// Durations as people type them on the command line and in the environment: `90d`, `12h`,
// `30m`, `3600s`, `2w` (API keys' and sign-in links' --expires-in, APP_SESSION_TTL).
import { GatewayError } from "./errors.ts";

export const durationPattern = /^(\d{1,6})([smhdw])$/;
const unitMs = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** `90d`, `12h`, `30m`, `3600s` → milliseconds. */
export function parseDuration(text: string): number {
  const match = durationPattern.exec(text.trim());
  if (!match) throw new GatewayError("BAD_USER_INPUT", `Invalid duration "${text}" (use e.g. 90d, 12h, 30m)`);
  return Number(match[1]) * unitMs[match[2] as keyof typeof unitMs];
}

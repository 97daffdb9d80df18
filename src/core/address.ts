// IP addresses and CIDR ranges as configuration spells them (TRUSTED_PROXIES): checked by the
// config schema here in core, applied by src/auth/client-address.ts.
import { isIP } from "node:net";

export const cidrPattern = /^(.+)\/(\d{1,3})$/;

/** `10.0.0.1`, `::1`, `10.0.0.0/8`, `fd00::/8`. */
export function isAddressOrCidr(entry: string): boolean {
  const cidr = cidrPattern.exec(entry);
  if (!cidr) return isIP(entry) !== 0;
  const family = isIP(cidr[1] as string);
  const prefix = Number(cidr[2]);
  return family !== 0 && prefix <= (family === 4 ? 32 : 128);
}

/**
 * A HOST (or URL host name) only this machine can reach: `localhost`, `127.x.y.z`, `::1` (bare or
 * bracketed). A wildcard (`0.0.0.0`, `::`) or any other name is reachable from elsewhere.
 */
export const isLoopbackHost = (host: string): boolean => /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i.test(host);

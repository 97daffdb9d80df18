// The client's address, for limits that must hold whatever credential a caller sends (unverified
// access tokens, failed authentications; see docs/security.md). It is the socket's peer address,
// unless that peer is one of TRUSTED_PROXIES: then it is the right-most X-Forwarded-For entry that
// is not a trusted proxy. Entries left of it are whatever the client chose to send and are never
// read, so a client cannot pick its own bucket by sending X-Forwarded-For.
import { BlockList, isIP } from "node:net";
import { cidrPattern } from "../core/address.ts";

/** `peer`: the socket's remote address; `forwardedFor`: reads X-Forwarded-For (only called for a trusted peer). */
export type ClientAddressResolver = (peer: string | undefined, forwardedFor: () => string | null | undefined) => string;

/** An IPv4 address as Node reports it on a dual-stack socket (`::ffff:10.0.0.1`) → `10.0.0.1`. */
const unmapped = (address: string): string =>
  address.toLowerCase().startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;

/** An X-Forwarded-For entry → an address, or null: `1.2.3.4`, `1.2.3.4:5678`, `[::1]:80`, `::1`. */
function entryAddress(entry: string): string | null {
  const trimmed = entry.trim();
  if (isIP(trimmed)) return unmapped(trimmed);
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(trimmed);
  if (bracketed && isIP(bracketed[1] as string) === 6) return unmapped(bracketed[1] as string);
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(trimmed);
  if (withPort && isIP(withPort[1] as string) === 4) return withPort[1] as string;
  return null;
}

export function createClientAddressResolver(trustedProxies: readonly string[]): ClientAddressResolver {
  if (trustedProxies.length === 0) return (peer) => (peer ? unmapped(peer) : "unknown");
  const trusted = new BlockList();
  for (const entry of trustedProxies) {
    const cidr = cidrPattern.exec(entry);
    const address = cidr ? (cidr[1] as string) : entry;
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (cidr) trusted.addSubnet(address, Number(cidr[2]), type);
    else trusted.addAddress(address, type);
  }
  const isTrusted = (address: string) => trusted.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
  return (peer, forwardedFor) => {
    if (!peer) return "unknown";
    let client = unmapped(peer);
    if (!isTrusted(client)) return client;
    const entries = (forwardedFor() ?? "").split(",");
    // Right to left: each trusted proxy appended the address it saw; the first one that is not a
    // trusted proxy is the client. A malformed entry ends the walk at the last trusted hop.
    for (let i = entries.length - 1; i >= 0; i--) {
      const address = entryAddress(entries[i] as string);
      if (!address) break;
      client = address;
      if (!isTrusted(address)) break;
    }
    return client;
  };
}

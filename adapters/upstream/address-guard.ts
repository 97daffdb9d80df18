// The SSRF guard at connect time. A tenant's URL comes from TENANT_URL_TEMPLATE filled with the
// credential's tenant claim; a claim such as `localhost`, `2130706433`, `0` or `0x7f000001` is a
// valid tenant id and yet names this machine. So for hosts the tenant chose, the address is
// checked where the socket is opened: IP literals before connecting, names after DNS resolution
// (a custom `lookup`), so a name that resolves — or re-resolves — to a private address is refused
// too. Loopback, RFC 1918, CGNAT, link-local (169.254.169.254 metadata included), unspecified,
// multicast, reserved, ULA and their IPv4-mapped forms are refused (see docs/resilience.md).
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from "node:dns";
import { BlockList, isIP } from "node:net";
import { buildConnector } from "undici";

const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network", 0.0.0.0
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, "ipv6");
}

/** An IPv4 address embedded in an IPv6 one (::ffff:a.b.c.d, ::a.b.c.d, 64:ff9b::a.b.c.d), if any. */
function embeddedIPv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1] as string, 16);
    const lo = parseInt(hex[2] as string, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return undefined;
}

/** Is this IP address (v4 or v6 literal) one the gateway must not connect to for a tenant? */
export function isPrivateAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(ip);
  if (family === 4) return blocked.check(ip, "ipv4");
  if (family === 6) {
    const v4 = embeddedIPv4(ip);
    if (v4 !== undefined) return blocked.check(v4, "ipv4");
    return blocked.check(ip, "ipv6");
  }
  return true; // not an address at all: refuse rather than guess
}

export const ADDRESS_BLOCKED = "ERR_UPSTREAM_ADDRESS_BLOCKED";

export class AddressBlockedError extends Error {
  readonly code = ADDRESS_BLOCKED;
  override name = "AddressBlockedError";
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to ${address}, a loopback, private, link-local or reserved address`);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup, refusing when any address it finds is private (net.connect's `lookup` option). */
export function guardedLookup(hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) {
      callback(error, []);
      return;
    }
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) {
      callback(new AddressBlockedError(hostname, bad.address) as unknown as NodeJS.ErrnoException, []);
      return;
    }
    if ((options as LookupAllOptions).all) callback(null, addresses);
    else callback(null, addresses[0]?.address ?? "", addresses[0]?.family ?? 4);
  });
}

/** An undici connector that checks the address: IP literals first, names through guardedLookup. */
export function guardedConnector(options: { timeout: number }): buildConnector.connector {
  const connect = buildConnector({ timeout: options.timeout, lookup: guardedLookup } as buildConnector.BuildOptions);
  return (opts, callback) => {
    const host = opts.hostname.replace(/^\[|\]$/g, "");
    if (isIP(host) && isPrivateAddress(host)) {
      callback(new AddressBlockedError(host, host), null);
      return;
    }
    connect(opts, callback);
  };
}

// The SSRF guard: a tenant claim that names this machine (localhost, 2130706433, 0x7f000001, 0)
// through TENANT_URL_TEMPLATE is refused at connect time, and the upstream sees nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isPrivateAddress } from "../../adapters/upstream/address-guard.ts";
import { makeContext, rejection, startHarness, type Harness } from "./helpers.ts";

describe("private addresses", () => {
  it.each([
    "127.0.0.1",
    "127.8.9.10",
    "0.0.0.0",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "224.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "[::1]",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "fe80::1%eth0",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
    "64:ff9b::10.0.0.1",
    "not-an-ip",
  ])("%s is refused", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "192.169.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("%s is allowed", (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe("tenant hosts from TENANT_URL_TEMPLATE", () => {
  let h: Harness;
  let port: string;

  beforeAll(async () => {
    h = await startHarness();
    port = new URL(h.sandbox.url).port;
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    await h.sandbox.reset();
  });

  const config = (extra: Record<string, unknown> = {}) => ({
    API_URL: "https://api.example.com",
    TENANTS_FILE: undefined,
    TENANT_URL_TEMPLATE: `http://{tenant}:${port}`,
    ...extra,
  });

  // "2130706433", "0x7f000001" and "0" are valid tenant ids that the URL parser turns into
  // 127.0.0.1 and 0.0.0.0 (an IP literal, checked before connecting); "localhost" is a name,
  // checked after DNS resolution.
  it.each(["localhost", "2130706433", "0x7f000001", "0"])("tenant %s → FORBIDDEN, and the upstream receives nothing", async (tenant) => {
    const { products } = h.build({ config: config() });
    const error = await rejection(products.enterprise.invoices(makeContext({ tenant }), {}));
    expect(error.code).toBe("FORBIDDEN");
    expect(error.message).toMatch(/not allowed/);
    expect(error.message).not.toMatch(/127\.0\.0\.1/);
    expect(h.sandbox.requests).toHaveLength(0);
  });

  it("UPSTREAM_ALLOW_PRIVATE_NETWORKS=true lets them through (so the test above is the guard's doing)", async () => {
    const { products } = h.build({ config: config({ UPSTREAM_ALLOW_PRIVATE_NETWORKS: true }) });
    await products.enterprise.invoices(makeContext({ tenant: "2130706433" }), {}).catch(() => undefined);
    await products.enterprise.invoices(makeContext({ tenant: "localhost" }), {}).catch(() => undefined);
    expect(h.sandbox.requests).toHaveLength(2);
  });

  it("an operator-configured origin is not the tenant's choice: API_URL's own origin is reachable", async () => {
    const { products } = h.build({ config: config({ API_URL: `http://127.0.0.1:${port}` }) });
    await products.enterprise.invoices(makeContext({ tenant: "2130706433" }), {}).catch(() => undefined);
    expect(h.sandbox.requests).toHaveLength(1);
    // … but only that origin: another port on the same host stays refused.
    const other = h.build({ config: config({ API_URL: `http://127.0.0.1:1` }) });
    expect((await rejection(other.products.enterprise.invoices(makeContext({ tenant: "2130706433" }), {}))).code).toBe("FORBIDDEN");
    expect(h.sandbox.requests).toHaveLength(1);
  });

  it("a template whose host is fixed (the tenant only in the path) is the operator's host", async () => {
    const { products } = h.build({ config: config({ TENANT_URL_TEMPLATE: `${h.sandbox.url}/tenants/{tenant}` }) });
    expect((await products.enterprise.invoices(makeContext({ tenant: "acme" }), {})).data.length).toBeGreaterThan(0);
  });

  it("refusals do not count against the origin's circuit", async () => {
    const { products, upstream } = h.build({ config: config(), client: { breaker: { minCalls: 2 } } });
    for (let i = 0; i < 5; i++) await rejection(products.enterprise.invoices(makeContext({ tenant: "localhost" }), {}));
    expect(upstream.circuit(`http://localhost:${port}`)).toBe("closed");
  });
});

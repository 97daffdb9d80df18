// workspace-gateway-mcp (packages/mcp): its reading of the environment and of MCP_TOOLS, without
// a gateway (test/deploy/mcp-package.test.ts runs the packed bin against one).
import { describe, expect, it } from "vitest";
import { ConfigError, readConfig, toolFilter } from "../../packages/mcp/src/index.ts";

describe("workspace-gateway-mcp configuration", () => {
  it("takes the variables of workspace-gateway mcp and points at /mcp", () => {
    const config = readConfig({ GATEWAY_URL: "http://127.0.0.1:4000", GATEWAY_API_KEY: "wgk_a", GATEWAY_TOKEN: "" });
    expect(config).toMatchObject({ url: "http://127.0.0.1:4000", token: "wgk_a", tokenVar: "GATEWAY_API_KEY", timeoutMs: 10_000 });
    expect(config.endpoint.href).toBe("http://127.0.0.1:4000/mcp");
    // A base path is kept (a gateway behind a prefix).
    expect(readConfig({ GATEWAY_URL: "https://host/gw/", GATEWAY_TOKEN: "t" }).endpoint.href).toBe("https://host/gw/mcp");
  });

  it("GATEWAY_API_KEY and GATEWAY_TOKEN together: the key is the bearer, the token goes beside it (X-Access-Token)", () => {
    expect(readConfig({ GATEWAY_URL: "http://x", GATEWAY_API_KEY: "wgk_a", GATEWAY_TOKEN: "tok" })).toMatchObject({
      token: "wgk_a",
      accessToken: "tok",
      tokenVar: "GATEWAY_API_KEY or GATEWAY_TOKEN",
    });
    expect(readConfig({ GATEWAY_URL: "http://x", GATEWAY_TOKEN: "tok" })).toMatchObject({ token: "tok", accessToken: undefined });
  });

  it("says every problem at once", () => {
    expect(() => readConfig({ GATEWAY_STARTUP_TIMEOUT_MS: "soon" })).toThrow(ConfigError);
    expect(() => readConfig({ GATEWAY_STARTUP_TIMEOUT_MS: "soon" })).toThrow(
      /GATEWAY_URL is required[^]*GATEWAY_API_KEY or GATEWAY_TOKEN is required[^]*GATEWAY_STARTUP_TIMEOUT_MS/,
    );
    expect(() => readConfig({ GATEWAY_URL: "file:///tmp", GATEWAY_TOKEN: "b" })).toThrow(/http\(s\) base URL/);
  });

  it("MCP_TOOLS keeps names and read-only tools among those offered", () => {
    const offered = [
      { name: "docs_read", inputSchema: { type: "object" as const }, annotations: { readOnlyHint: true } },
      { name: "docs_create", inputSchema: { type: "object" as const }, annotations: { readOnlyHint: false } },
      { name: "docs_delete", inputSchema: { type: "object" as const } },
    ];
    expect(toolFilter(undefined, offered)).toBeNull();
    expect([...toolFilter(["read-only"], offered)!]).toEqual(["docs_read"]);
    expect([...toolFilter(["read-only", "docs_delete"], offered)!]).toEqual(["docs_read", "docs_delete"]);
    expect(() => toolFilter(["sheets_read"], offered)).toThrow(/no tool "sheets_read"/);
    expect(readConfig({ GATEWAY_URL: "http://x", GATEWAY_TOKEN: "t", MCP_TOOLS: " docs_read , " }).toolNames).toEqual(["docs_read"]);
  });
});

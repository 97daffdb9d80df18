// A real OpenID provider for the application's sign-in tests: oidc-provider (MIT) on a loopback
// port, with its development login and consent pages (any login name is a user; the tenant
// claim is "acme"), one confidential client, PKCE required, and the gateway's scopes granted for
// its API as a resource (an access token for "urn:workspace-gateway").
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export const OIDC_CLIENT = { id: "workspace-app", secret: "a-client-secret-of-the-test-provider" };
const GATEWAY_SCOPES = "docs:read docs:write sheets:read sheets:write";
const RESOURCE = "urn:workspace-gateway";

export interface TestOidcProvider {
  issuer: string;
  /** Registers the gateway's callback (known once the gateway listens) and starts answering. */
  start(redirectUri: string): void;
  close(): Promise<void>;
}

/** Listens first (the issuer's URL must be in the gateway's configuration), answers once started. */
export async function listenOidcProvider(): Promise<TestOidcProvider> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server: Server = createServer((req, res) => {
    if (handler) handler(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    start(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: OIDC_CLIENT.id,
            client_secret: OIDC_CLIENT.secret,
            redirect_uris: [redirectUri],
            grant_types: ["authorization_code"],
            response_types: ["code"],
            token_endpoint_auth_method: "client_secret_post",
          },
        ],
        scopes: ["openid", ...GATEWAY_SCOPES.split(" ")],
        claims: { openid: ["sub", "tenant"] },
        findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, tenant: "acme" }) }),
        pkce: { required: () => true },
        cookies: { keys: ["a-cookie-signing-key-for-the-test-provider"] },
        features: {
          devInteractions: { enabled: true },
          resourceIndicators: {
            enabled: true,
            defaultResource: () => RESOURCE,
            useGrantedResource: () => true,
            getResourceServerInfo: () => ({ scope: GATEWAY_SCOPES, audience: RESOURCE, accessTokenFormat: "opaque" }),
          },
        },
      });
      const callback = provider.callback();
      handler = (req, res) => void callback(req, res);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// Listening and graceful shutdown: stop accepting, let in-flight requests finish (bounded),
// then close the gateway (workers, store).
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import type { Gateway } from "./gateway.ts";

export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  /** Stops accepting, waits for in-flight requests (up to the shutdown timeout), closes the gateway. */
  stop(): Promise<void>;
}

export function listen(gateway: Gateway, options: { port: number; host: string; shutdownTimeoutMs: number }): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: gateway.app.fetch, port: options.port, hostname: options.host }) as Server;
    // Slow clients must not hold sockets forever; long renders are bounded by the pool, not here.
    server.requestTimeout = 120_000;
    server.headersTimeout = 30_000;
    server.keepAliveTimeout = 5_000;
    server.once("error", reject);
    server.once("listening", () => {
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(":") ? `[${options.host}]` : options.host;
      let stopping: Promise<void> | undefined;
      resolve({
        url: `http://${host}:${port}`,
        port,
        server,
        stop: () =>
          (stopping ??= new Promise<void>((done) => {
            const force = setTimeout(() => server.closeAllConnections(), options.shutdownTimeoutMs);
            force.unref();
            // Keep-alive sockets become idle as their last response ends; close them as they do.
            const sweep = setInterval(() => server.closeIdleConnections(), 50);
            server.close(() => {
              clearTimeout(force);
              clearInterval(sweep);
              gateway.close().then(done, done);
            });
            server.closeIdleConnections();
          })),
      });
    });
  });
}

// Spawning the real `workspace-gateway mcp` for a test, through the SDK's stdio client or raw.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export const bin = fileURLToPath(new URL("../../bin/workspace-gateway.js", import.meta.url));

/** The stdio package workspace-gateway-mcp (packages/mcp), from its sources: node arguments for rawExchange. */
export const packageBin = ["--import", "tsx", fileURLToPath(new URL("../../packages/mcp/src/cli.ts", import.meta.url)), "mcp"];

/** Only what the command needs: a test must not pass because of the developer's own environment. */
const childEnv = (vars: Record<string, string>) => ({ PATH: process.env["PATH"] ?? "", ...vars });

export interface StdioMcp {
  client: Client;
  stderr(): string;
  close(): Promise<void>;
}

export async function connectStdio(vars: Record<string, string>): Promise<StdioMcp> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, "mcp"], env: childEnv(vars), stderr: "pipe" });
  const chunks: string[] = [];
  transport.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
  const client = new Client({ name: "stdio-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => chunks.join(""), close: () => client.close() };
}

/**
 * Runs the command to completion (a start-up failure). Asynchronous on purpose: the test gateway
 * lives in this process, and spawnSync would block it from answering the start-up check.
 */
export async function runStdioToExit(vars: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, "mcp"], { env: childEnv(vars), stdio: ["ignore", "pipe", "pipe"], timeout: 30_000 });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.once("close", resolve));
  return { status, stdout, stderr };
}

/**
 * Sends JSON-RPC lines to a spawned server and collects everything it writes to stdout, waiting
 * for a response to each request id. The SDK's client drops stdout lines that are not JSON-RPC,
 * so only reading stdout ourselves shows stray output.
 */
export async function rawExchange(
  vars: Record<string, string>,
  messages: object[],
  /** The node arguments that start the server: default `workspace-gateway mcp`; packageBin for workspace-gateway-mcp. */
  args: string[] = [bin, "mcp"],
): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, { env: childEnv(vars), stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const expected = new Set(messages.flatMap((m) => ("id" in m ? [m.id] : [])));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no answer to every request; stdout so far:\n${stdout}\nstderr:\n${stderr}`)),
        30_000,
      );
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`exited ${code} early; stderr:\n${stderr}`));
      });
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        for (const line of stdout.split("\n")) {
          try {
            expected.delete((JSON.parse(line) as { id?: unknown }).id);
          } catch {
            // An incomplete (or stray) line: the caller's assertions judge the whole stdout.
          }
        }
        if (expected.size === 0) {
          clearTimeout(timer);
          resolve();
        }
      });
      for (const message of messages) child.stdin.write(`${JSON.stringify(message)}\n`);
    });
  } finally {
    child.removeAllListeners("exit");
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.stdin.end();
      // Closing stdin ends the session; if the process lingers, stop the one we started.
      const timer = setTimeout(() => child.kill(), 5_000);
      await exited;
      clearTimeout(timer);
    }
  }
  return { stdout, stderr };
}

/** A loopback port nothing listens on (bound and released), so connecting to it is refused. */
export async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// A transport in front of the stdio one that answers a malformed tools/call itself: -32602
// (invalid params) with one short sentence, as the gateway's /mcp and `workspace-gateway mcp` do
// (src/mcp/guard.ts, which this package may not import: it bundles nothing from the gateway's
// src/). Without it the SDK's request schema refused `arguments: "x"` or `name: 5` with -32603 and
// its zod issues, several lines long (issue 37 F9).
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type JSONRPCMessage, type MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";

/** What is wrong with a tools/call's params, or null when their shape is right (the arguments themselves are the tool's to check). */
export function malformedToolCall(params: unknown): string | null {
  if (typeof params !== "object" || params === null || Array.isArray(params)) return "params must be an object";
  const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== "string") return "params.name must be a string";
  if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) return "params.arguments must be an object";
  return null;
}

export class ToolCallGuard implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;

  constructor(private readonly inner: Transport) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message, extra) => this.receive(message, extra);
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const request = message as { method?: unknown; id?: unknown; params?: unknown };
    const problem = request.method === "tools/call" && "id" in request ? malformedToolCall(request.params) : null;
    if (problem === null) {
      this.onmessage?.(message, extra);
      return;
    }
    const id = request.id as string | number;
    this.inner
      .send({ jsonrpc: "2.0", id, error: { code: ErrorCode.InvalidParams, message: problem } }, { relatedRequestId: id })
      .catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
  }
}

// The service layer as the surfaces see it: what every surface (REST, GraphQL, tRPC, MCP) is
// handed. Surfaces import these types from here, never from the wiring file (src/gateway.ts),
// which imports the surfaces in turn.
import type { DocumentsService } from "./documents.ts";
import type { ItemsService } from "./items.ts";
import type { OperationRunner } from "./runner.ts";

export interface Services {
  /** Every operation of the table, run with its credential check, validation and error mapping. */
  operations: OperationRunner;
  /** The documents service itself, for what is not an operation (tests, tools that seed data). */
  documents: DocumentsService;
  /** PUBLIC_URL without its trailing slash, or "" when unset: what links the gateway builds start with. */
  publicUrl: string;
  /** Documents and spreadsheets together, newest first (the owner's application's list). */
  items: ItemsService;
  /** Markdown as the sanitised HTML a reader sees (./preview.ts). */
  preview(markdown: string): string;
}

export type { WorkspaceItem } from "./items.ts";

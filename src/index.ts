// The package's type-only entry: `import type { AppRouter } from "workspace-gateway"`.
export type { AppRouter } from "./trpc/router.ts";
export type { GatewayClient, GatewayClientError, GatewayClientOptions, GatewayErrorCode, GatewayErrorData } from "./client/index.ts";
export type { DocumentList, DocumentSummary, DocumentText, CreateDocumentInput } from "./contract/documents.ts";

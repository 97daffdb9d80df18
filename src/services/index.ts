// The service layer as the surfaces see it: what every surface (REST, GraphQL, tRPC, MCP) is
// handed. Surfaces import these types from here, never from the wiring file (src/gateway.ts),
// which imports the surfaces in turn.
import type { DocumentsService } from "./documents.ts";
import type { ProductServices } from "./products.ts";

export interface Services {
  documents: DocumentsService;
  products: ProductServices;
  /** PUBLIC_URL without its trailing slash, or "" when unset: what links the gateway builds start with. */
  publicUrl: string;
}

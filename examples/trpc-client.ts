// A TypeScript agent using the gateway's typed tRPC client. Type-checked in CI (`npm run typecheck`)
// through the package's own name, as an installed package resolves it; docs/consumers.md explains it.
// Run: GATEWAY_URL=http://127.0.0.1:4000 GATEWAY_API_KEY=wgk_… npx tsx examples/trpc-client.ts
import { createGatewayClient, gatewayCode, isGatewayError } from "workspace-gateway/client";

const gateway = createGatewayClient({ url: process.env.GATEWAY_URL ?? "http://127.0.0.1:4000", token: process.env.GATEWAY_API_KEY ?? "" });
const doc = await gateway.documents.create.mutate({ name: "Plan", markdown: "# Plan\n\n- ship\n- measure" });
const { text, truncated } = await gateway.documents.read.query({ id: doc.id, maxChars: 1000 });
const { documents } = await gateway.documents.list.query({ query: "plan", limit: 10 });
console.log(doc.downloadUrl, text, truncated, documents.length);

try {
  await gateway.documents.read.query({ id: "doc_01JD7Q6R1V2S3T4U5W6X7Y8Z9A" });
} catch (error) {
  // No `instanceof TRPCClientError`: it is false when two copies of @trpc/client are loaded.
  if (!isGatewayError(error)) throw error; // a network failure, or a bug here
  console.log(gatewayCode(error), error.data.code, error.message); // NOT_FOUND NOT_FOUND Document not found
}

// A TypeScript agent using the gateway's typed tRPC client. Type-checked in CI (`npm run typecheck`).
// Run: GATEWAY_URL=http://127.0.0.1:4000 GATEWAY_API_KEY=wgk_… npx tsx examples/trpc-client.ts
import { createGatewayClient } from "../src/client/index.ts";

const gateway = createGatewayClient({
  url: process.env["GATEWAY_URL"] ?? "http://127.0.0.1:4000",
  token: process.env["GATEWAY_API_KEY"] ?? "",
});

const doc = await gateway.documents.create.mutate({ name: "Plan", markdown: "# Plan\n\n- ship\n- measure" });
const { text, truncated } = await gateway.documents.read.query({ id: doc.id, maxChars: 1000 });
const { documents } = await gateway.documents.list.query({ query: "plan", limit: 10 });
console.log(doc.downloadUrl, text, truncated, documents.length);

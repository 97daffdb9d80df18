// A TypeScript agent working on a spreadsheet through the gateway's typed tRPC client. Type-checked
// in CI (`npm run typecheck`) through the package's own name; README.md "Spreadsheets" shows it.
// Run: GATEWAY_URL=http://127.0.0.1:4000 GATEWAY_API_KEY=wgk_… npx tsx examples/sheets-client.ts
import { createGatewayClient, gatewayCode, isGatewayError } from "workspace-gateway/client";

const gateway = createGatewayClient({ url: process.env.GATEWAY_URL ?? "http://127.0.0.1:4000", token: process.env.GATEWAY_API_KEY ?? "" });
const book = await gateway.sheets.create.mutate({
  name: "Forecast",
  sheets: [
    {
      name: "Plan",
      values: [
        ["month", "revenue"],
        ["Jan", 100],
        ["Feb", "=B2*1.1"],
        ["total", "=SUM(B2:B3)"],
      ],
    },
  ],
  // One key per workbook, made once: a retry of this very call sends it again and gets this workbook
  // back (within 24 h), not a second one. A fixed key would hand a second run the first run's.
  idempotencyKey: crypto.randomUUID(),
});
const written = await gateway.sheets.write.mutate({ id: book.id, range: "B2", values: [[120]], expectedVersion: book.version });
const read = await gateway.sheets.read.query({ id: book.id, range: "A1:B4" });
const { value } = await gateway.sheets.evaluate.query({ id: book.id, formula: "=AVERAGE(Plan!B2:B3)" });
console.log(written.recalculatedCells, "values" in read ? read.values : read.text, value); // 2 [["month","revenue"],["Jan",120],["Feb",132],["total",252]] 126

try {
  await gateway.sheets.write.mutate({ id: book.id, range: "B2", values: [[0]], expectedVersion: book.version });
} catch (error) {
  if (!isGatewayError(error)) throw error;
  console.log(gatewayCode(error)); // PRECONDITION_FAILED: someone (here, we) changed it since that version
}

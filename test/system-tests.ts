// The system suite (`npm run test:system`, vitest.system.config.ts): the test files that install
// packages, build, start processes or services of their own, restart them, or drive an external
// program (PostgreSQL and Redis set-ups and outages, PgBouncer, LibreOffice, a browser, the demo).
// `npm test` (vitest.config.ts) runs everything else: unit tests and in-process integration
// (a real gateway on an ephemeral port in the test's own process, short-lived CLI children).
// CI (.ci/run) runs both. A new file that needs any of the above belongs here.
export const systemTests = [
  // Package install, build, container, replicas, rolling restarts, PgBouncer, Redis/PostgreSQL outages, backup.
  "test/deploy/**/*.test.ts",
  // Headless Chromium.
  "test/browser/**/*.test.ts",
  // The gateway as its own process: signals, restarts, PostgreSQL.
  "test/process/lifecycle.test.ts",
  "test/process/start-link.test.ts",
  // Shared PostgreSQL and Redis between gateways, their outages.
  "test/ops/shared-services.test.ts",
  // Starts gateway processes against PostgreSQL and Redis configurations.
  "test/firsthour/configuration.test.ts",
  // npm pack + install into a fresh project, tsc on a consumer.
  "test/firsthour/consumer.test.ts",
  // LibreOffice (and an npm install of other writers).
  "test/spreadsheets/xlsx-read-writers.test.ts",
  "test/spreadsheets/xlsx-libreoffice.test.ts",
  "test/spreadsheets/fidelity.test.ts",
  // The Excel oracle corpus (fetched by `npm run corpus:excel`), LibreOffice recomputing it beside us.
  "test/spreadsheets/excel-fidelity.test.ts",
  "test/documents/render/libreoffice.test.ts",
  "test/documents/import/other-writers.test.ts",
  "test/fuzz/markdown.test.ts",
  // pandoc: reading our .docx back (the README corpus, block counts after a round trip, pandoc's own view).
  "test/documents/render/corpus.test.ts",
  "test/documents/render/pandoc.test.ts",
  "test/documents/import/round-trip.test.ts",
  // pandoc's and LibreOffice's .docx uploaded over REST.
  "test/rest/other-writers.test.ts",
  "test/spreadsheets/behaviour-files.test.ts",
  // `workspace-gateway mcp` spawned as a stdio child, and the MCP Inspector CLI against a gateway.
  "test/mcp/stdio.test.ts",
  "test/mcp/two-credentials-stdio.test.ts",
  "test/security/mcp-stdio.test.ts",
  "test/mcp/inspector.test.ts",
  // Hive Gateway as a process over a composed supergraph.
  "test/graphql/federation-router.test.ts",
  // `npm run demo` as a process (the sandbox and a gateway), and every README/docs example against it.
  "test/products/demo.test.ts",
  "test/docs/readme-examples.test.ts",
];

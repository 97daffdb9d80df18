// Flat config: typescript-eslint's recommended rules on every TS file; generated files are checked by tsc only.
// The layers' allowed import directions are rules here, so that a back-arrow fails CI
// (README "How it is built"; test/lint/boundaries.test.ts plants one of each).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** A `no-restricted-imports` pattern: imports matching `regex` are errors saying `message`. */
const forbid = (regex, message) => ({ regex, message });

// Every room of the house (docs/architecture.md), as a relative import names it: "../store/…",
// "../../src/services/…". A room's zone forbids every room it may not import.
const rooms = [
  "core",
  "contract",
  "ooxml",
  "documents",
  "spreadsheets",
  "store",
  "auth",
  "observability",
  "services",
  "http",
  "rest",
  "graphql",
  "trpc",
  "mcp",
  "uploads",
  "client",
  "app",
  "cli",
  "resolvers",
  "adapters",
];
const roomImport = (room) => `^(\\.\\./)+(src/)?${room}/`;
const toWiring = forbid(
  "^(\\.\\./)+(src/)?(gateway|server|serve|main)\\.ts$",
  "Import the service layer's types from src/services/index.ts, not from the wiring file (src/gateway.ts imports the surfaces).",
);

/** Files of `room` may import only `allowed` (and themselves, packages and src/version.ts). */
function zone(files, allowed, why) {
  const forbidden = rooms.filter((room) => !allowed.includes(room));
  return {
    files,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...forbidden.map((room) => forbid(roomImport(room), `${why} (${room}/ is not among: ${allowed.join(", ") || "nothing"})`)),
            toWiring,
          ],
        },
      ],
    },
  };
}

const surfaces = ["services", "contract", "core", "auth", "observability", "http", "rest", "graphql", "trpc", "mcp", "uploads", "client"];
// src/core imports nothing above it; adapters/ is a leaf library with its own options and error
// type (adapters/errors.ts, mapped to the contract's codes by src/services/adapter-errors.ts).
const outOfCore = forbid(
  "^\\.\\./",
  "src/core imports nothing above it (only ./ within src/core and packages): pass what it needs in, or move the piece into core.",
);
const outOfAdapters = forbid(
  "(^|/)(src|resolvers)/",
  "adapters/ imports nothing from src/ or resolvers/ (take settings as its own options; throw AdapterError from adapters/errors.ts, which the service layer maps to GatewayError).",
);

// packages/mcp is published on its own (workspace-gateway-mcp), bundled with no dependency: it
// forwards to a gateway over HTTP and must not pull the server's code (stores, renderers) in.
const outOfMcpPackage = forbid(
  "^\\.\\./",
  "packages/mcp imports only ./ within packages/mcp/src and the MCP SDK: it talks to the gateway over HTTP, and anything from src/ would be bundled into it.",
);

// The application's browser code imports only ./ within src/app/client: anything else would be
// bundled into the pages' scripts.
const outOfClientLayer = forbid(
  "^\\.\\./",
  "src/app/client runs in the browser: import only ./ within src/app/client (the server's modules would be bundled into every page)",
);

// The rooms inside src/spreadsheets (docs/architecture.md, each room's README.md), from the ground
// up: cells/ ← formula/ ← workbook/ (with report/) ← tiles/, io/ ← pool/. A second rule
// (typescript-eslint's, which can let a type through) so the src/spreadsheets zone above still holds.
// Where a room takes another's types only (the grid holds compiled programs, WorkbookData names
// tables), that is all it may take.
const sheetRooms = ["cells", "formula", "workbook", "report", "tiles", "io", "pool"];
function sheetZone(room, allowed, typesOnly, why) {
  const forbidden = sheetRooms.filter((other) => other !== room && !allowed.includes(other));
  return {
    files: [`src/spreadsheets/${room}/**/*.ts`],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: forbidden.map((other) => ({
            regex: `^(\\.\\./)+${other}/`,
            message: `${why} (${other}/ is not among: ${allowed.join(", ") || "nothing"}${typesOnly.includes(other) ? "; its types are" : ""})`,
            ...(typesOnly.includes(other) ? { allowTypeImports: true } : {}),
          })),
        },
      ],
    },
  };
}
const sheetZones = [
  sheetZone("cells", [], ["formula", "workbook", "report"], "src/spreadsheets/cells is the ground: addresses, the grid, cell types"),
  sheetZone("formula", ["cells"], [], "src/spreadsheets/formula compiles and evaluates formulas over cells; the workbook calls it"),
  sheetZone(
    "workbook",
    ["cells", "formula", "report"],
    [],
    "src/spreadsheets/workbook is the live model; storage, files and workers sit above it",
  ),
  sheetZone("report", ["cells", "formula"], ["workbook"], "src/spreadsheets/report judges an import against the workbook's types"),
  sheetZone("tiles", ["cells", "formula", "workbook"], [], "src/spreadsheets/tiles saves the workbook; the pool calls it"),
  sheetZone("io", ["cells", "report"], ["workbook"], "src/spreadsheets/io reads and writes files as WorkbookData, not the live model"),
];

const zones = [
  { files: ["packages/mcp/**/*.ts"], rules: { "no-restricted-imports": ["error", { patterns: [outOfMcpPackage] }] } },
  { files: ["src/core/**/*.ts"], rules: { "no-restricted-imports": ["error", { patterns: [outOfCore] }] } },
  { files: ["adapters/**/*.ts"], rules: { "no-restricted-imports": ["error", { patterns: [outOfAdapters] }] } },
  zone(
    ["src/contract/**/*.ts"],
    ["core", "contract", "adapters", "spreadsheets"],
    "src/contract holds the API's schemas: core, the upstream shapes and the spreadsheet engine's edit operations only",
  ),
  zone(
    ["src/ooxml/**/*.ts"],
    ["core", "ooxml"],
    "src/ooxml imports only itself, src/core and packages: it reads and writes packages for the engines",
  ),
  zone(["src/documents/**/*.ts"], ["core", "ooxml", "documents"], "src/documents is the renderer and importer: core and ooxml only"),
  zone(
    ["src/spreadsheets/**/*.ts"],
    ["core", "ooxml", "spreadsheets"],
    "src/spreadsheets imports only itself, src/ooxml, src/core and packages: the service layer calls it, never the reverse",
  ),
  zone(["src/store/**/*.ts"], ["core", "contract", "store"], "src/store is the database: core and the contract's types only"),
  zone(["src/auth/**/*.ts"], ["core", "contract", "store", "auth"], "src/auth checks credentials against the store"),
  zone(
    ["src/observability/**/*.ts"],
    ["core", "observability"],
    "src/observability (metrics, traces) imports core only; HTTP middleware lives in src/http",
  ),
  zone(
    ["src/services/**/*.ts"],
    ["core", "contract", "ooxml", "documents", "spreadsheets", "store", "auth", "observability", "services", "adapters"],
    "The service layer does not import a surface: surfaces call services, not the reverse",
  ),
  ...["http", "rest", "graphql", "trpc", "mcp", "uploads", "client"].map((room) =>
    zone(
      [`src/${room}/**/*.ts`],
      room === "graphql" ? [...surfaces, "resolvers"] : surfaces,
      "A surface reaches adapters, stores and engines through the service layer (src/services): import its types and helpers from there",
    ),
  ),
  // The owner's application (src/app/) is a surface too: it runs operations through the service
  // layer, renders with the contract's types and reuses the HTTP pieces (downloads, uploads).
  zone(
    ["src/app/**/*.ts"],
    [...surfaces, "app"],
    "The owner's application reaches documents and spreadsheets through the service layer (src/services), as every surface does",
  ),
  // Its client layer runs in the browser, bundled by esbuild: nothing of the server may be pulled in.
  {
    files: ["src/app/client/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [outOfClientLayer] }] },
  },
  zone(
    ["resolvers/**/*.ts"],
    ["services", "contract", "core", "resolvers"],
    "resolvers/ run operations through the service layer; src/graphql imports them, not the reverse",
  ),
];

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      "dist/",
      "packages/*/dist/",
      "packages/*/dist-pack/",
      "dist.tmp-*/",
      "dist.old-*/",
      "data/",
      "test/artifacts/",
      "**/*.generated.ts",
      "coverage/",
      "scratch/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        Buffer: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    // Type-aware rules: a promise nobody awaits loses its rejection; one passed where a callback's
    // result is ignored (an event handler, a void-typed parameter) does the same.
    files: ["**/*.ts"],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ["vitest.faults.config.ts", "vitest.fuzz.config.ts"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
    },
  },
  ...zones,
  ...sheetZones,
);

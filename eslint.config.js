// Flat config: typescript-eslint's recommended rules on every TS file; generated files are checked by tsc only.
// The layers' allowed import directions are rules here, so that a back-arrow fails CI
// (README "How it is built"; test/lint/boundaries.test.ts plants one of each).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** A `no-restricted-imports` pattern: imports matching `regex` are errors saying `message`. */
const forbid = (regex, message) => ({ regex, message });

const layers = {
  /** Surfaces: the transports callers speak. They call the service layer; adapters are behind it. */
  surfaces: ["src/rest/**/*.ts", "src/trpc/**/*.ts", "src/graphql/**/*.ts", "src/mcp/**/*.ts", "src/uploads/**/*.ts", "resolvers/**/*.ts"],
  services: ["src/services/**/*.ts", "src/products/**/*.ts"],
  core: ["src/core/**/*.ts"],
  adapters: ["adapters/**/*.ts"],
  spreadsheets: ["src/spreadsheets/**/*.ts"],
  ooxml: ["src/ooxml/**/*.ts"],
};
const toAdapters = forbid(
  "(^|/)adapters/",
  "A surface reaches adapters through the service layer (src/services, src/products): import its types and helpers from there.",
);
const toWiring = forbid(
  "(^|/)gateway\\.ts$",
  "Import the service layer's types from src/services/index.ts, not from the wiring file (src/gateway.ts imports the surfaces).",
);
const toSurfaces = forbid(
  "(^|/)(rest|trpc|graphql|mcp|uploads|http|resolvers)/",
  "The service layer does not import a surface: surfaces call services, not the reverse.",
);
// adapters/ is a leaf library: its own options, its own error type (adapters/errors.ts, mapped to
// the contract's codes by the service layer, src/services/adapter-errors.ts), no import of src/.
const outOfAdapters = forbid(
  "(^|/)(src|resolvers)/",
  "adapters/ imports nothing from src/ or resolvers/ (take settings as its own options; throw AdapterError from adapters/errors.ts, which the service layer maps to GatewayError).",
);
const outOfCore = forbid(
  "^\\.\\./",
  "src/core imports nothing above it (only ./ within src/core and packages): pass what it needs in, or move the piece into core.",
);

// src/spreadsheets/ is an engine room like the renderer: the cell model, formulas, .xlsx/.csv in
// and out. It knows nothing of the store, the services or any surface; its .xlsx zips go through
// src/ooxml/.
const outOfSpreadsheets = forbid(
  "(^|/)(adapters|resolvers|store|services|contract|documents|auth|observability|http|rest|trpc|graphql|mcp|uploads|cli)/|(^|/)gateway\\.ts$",
  "src/spreadsheets imports only itself, src/ooxml, src/core and packages: the service layer calls it, never the reverse.",
);

// src/ooxml/ is the Office packages' plumbing (the zip writer the .docx renderer and the .xlsx
// writer share, and safe zip reading for imports): a leaf under documents/ and spreadsheets/.
const outOfOoxml = forbid(
  "^\\.\\./(?!core/)",
  "src/ooxml imports only itself, src/core and packages: the renderer, the importers and the spreadsheets call it, never the reverse.",
);

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      "dist/",
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
      parserOptions: { projectService: { allowDefaultProject: ["vitest.faults.config.ts"] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
    },
  },
  { files: layers.surfaces, rules: { "no-restricted-imports": ["error", { patterns: [toAdapters, toWiring] }] } },
  { files: layers.services, rules: { "no-restricted-imports": ["error", { patterns: [toSurfaces, toWiring] }] } },
  { files: layers.core, rules: { "no-restricted-imports": ["error", { patterns: [outOfCore] }] } },
  { files: layers.adapters, rules: { "no-restricted-imports": ["error", { patterns: [outOfAdapters] }] } },
  { files: layers.spreadsheets, rules: { "no-restricted-imports": ["error", { patterns: [outOfSpreadsheets] }] } },
  { files: layers.ooxml, rules: { "no-restricted-imports": ["error", { patterns: [outOfOoxml] }] } },
);

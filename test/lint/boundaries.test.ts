// The layers' import directions are lint rules (eslint.config.js), so that CI fails on a
// back-arrow. This plants one of each kind at a real layer path — linted through ESLint's Node API
// as if the file were there, never written to the tree — and checks the error, and that the
// allowed direction passes.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { root } from "../helpers/process.ts";

/** Virtual files are in no tsconfig: the type-aware rules type them with a default project. */
const planted = [
  "src/core/zz-planted.ts",
  "src/services/zz-planted.ts",
  "src/rest/zz-planted.ts",
  "resolvers/zz-planted.ts",
  "adapters/zz-planted.ts",
  "adapters/upstream/zz-planted.ts",
  "src/ooxml/zz-planted.ts",
  "src/spreadsheets/io/xlsx/zz-planted.ts",
  "src/app/zz-planted.ts",
  "src/app/client/zz-planted.ts",
  "src/spreadsheets/cells/zz-planted.ts",
  "src/spreadsheets/io/zz-planted.ts",
];
const eslint = new ESLint({
  cwd: root,
  overrideConfig: [
    {
      files: ["**/zz-planted.ts"],
      languageOptions: {
        parserOptions: {
          projectService: { allowDefaultProject: planted, maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 16 },
        },
      },
    },
  ],
});

async function lint(path: string, code: string): Promise<{ rule: string | null; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}/${path}` });
  return result!.messages.map((m) => ({ rule: m.ruleId, message: m.message }));
}

const restricted = (message: RegExp) => [{ rule: "no-restricted-imports", message: expect.stringMatching(message) }];

describe("layer boundaries (eslint.config.js)", () => {
  it("src/core importing the service layer (or auth, documents) is an error; core's own modules are fine", async () => {
    expect(await lint(planted[0]!, `import type { Services } from "../services/index.ts";\nexport type S = Services;\n`)).toEqual(
      restricted(/src\/core imports nothing above it/),
    );
    expect(await lint(planted[0]!, `import { requireUser } from "../auth/authenticate.ts";\nexport const user = requireUser;\n`)).toEqual(
      restricted(/src\/core imports nothing above it/),
    );
    expect(
      await lint(planted[0]!, `import { GatewayError } from "./errors.ts";\nexport const e = new GatewayError("INTERNAL", "x");\n`),
    ).toEqual([]);
  }, 60_000);

  it("a surface importing an adapter, or Services from the wiring file, is an error; the service layer is fine", async () => {
    expect(await lint(planted[2]!, `import type { DriveFile } from "../../adapters/drive.ts";\nexport type F = DriveFile;\n`)).toEqual(
      restricted(/through the service layer/),
    );
    expect(await lint(planted[3]!, `import type { DriveFile } from "../adapters/drive.ts";\nexport type F = DriveFile;\n`)).toEqual(
      restricted(/through the service layer/),
    );
    expect(await lint(planted[2]!, `import type { Services } from "../gateway.ts";\nexport type S = Services;\n`)).toEqual(
      restricted(/not from the wiring file/),
    );
    expect(
      await lint(
        planted[2]!,
        `import type { Services } from "../services/index.ts";\nimport type { DriveFile } from "../services/products.ts";\nexport type S = [Services, DriveFile];\n`,
      ),
    ).toEqual([]);
  }, 60_000);

  it("the service layer importing a surface is an error", async () => {
    expect(await lint(planted[1]!, `import type { AppRouter } from "../trpc/router.ts";\nexport type R = AppRouter;\n`)).toEqual(
      restricted(/does not import a surface/),
    );
  }, 60_000);

  it("adapters importing src/ (the service layer, core's config, core's GatewayError) is an error; their own modules are fine", async () => {
    expect(await lint(planted[4]!, `import type { Services } from "../src/services/index.ts";\nexport type S = Services;\n`)).toEqual(
      restricted(/adapters\/ imports nothing from src\//),
    );
    expect(await lint(planted[5]!, `import type { Config } from "../../src/core/config.ts";\nexport type C = Config;\n`)).toEqual(
      restricted(/adapters\/ imports nothing from src\//),
    );
    expect(
      await lint(
        planted[4]!,
        `import { GatewayError } from "../src/core/errors.ts";\nexport const e = new GatewayError("NOT_FOUND", "x");\n`,
      ),
    ).toEqual(restricted(/adapters\/ imports nothing from src\//));
    expect(await lint(planted[5]!, `import { GatewayError } from "../../src/core/errors.ts";\nexport const e = GatewayError;\n`)).toEqual(
      restricted(/adapters\/ imports nothing from src\//),
    );
    expect(
      await lint(
        planted[5]!,
        `import { AdapterError } from "../errors.ts";\nimport { isSafeSegment } from "./base.ts";\nexport const e = [AdapterError, isSafeSegment];\n`,
      ),
    ).toEqual([]);
  }, 60_000);

  it("src/ooxml importing the renderer, the .docx import, the spreadsheets or the service layer is an error; src/core and its own modules are fine", async () => {
    expect(
      await lint(planted[6]!, `import { extractDocx } from "../documents/import/extract.ts";\nexport const x = extractDocx;\n`),
    ).toEqual(restricted(/src\/ooxml imports only itself/));
    expect(await lint(planted[6]!, `import type { Services } from "../services/index.ts";\nexport type S = Services;\n`)).toEqual(
      restricted(/src\/ooxml imports only itself/),
    );
    expect(
      await lint(planted[6]!, `import { renderDocument } from "../documents/render/index.ts";\nexport const r = renderDocument;\n`),
    ).toEqual(restricted(/src\/ooxml imports only itself/));
    expect(await lint(planted[6]!, `import type { Cell } from "../spreadsheets/types.ts";\nexport type C = Cell;\n`)).toEqual(
      restricted(/src\/ooxml imports only itself/),
    );
    expect(
      await lint(
        planted[6]!,
        `import { GatewayError } from "../core/errors.ts";\nimport { zipParts } from "./zip-write.ts";\nexport const e = [GatewayError, zipParts];\n`,
      ),
    ).toEqual([]);
  }, 60_000);

  it("src/spreadsheets may use src/ooxml's zip writer, and not the renderer", async () => {
    expect(await lint(planted[7]!, `import { zipParts } from "../../ooxml/zip-write.ts";\nexport const z = zipParts;\n`)).toEqual([]);
    expect(await lint(planted[7]!, `import { xmlSafe } from "../../documents/render/text.ts";\nexport const x = xmlSafe;\n`)).toEqual(
      restricted(/src\/spreadsheets imports only itself, src\/ooxml/),
    );
  }, 60_000);

  it("inside src/spreadsheets, a room imports only the rooms below it, and some of those as types only", async () => {
    const inRoom = (message: RegExp) => [{ rule: "@typescript-eslint/no-restricted-imports", message: expect.stringMatching(message) }];
    expect(await lint(planted[10]!, `import { isError } from "../formula/values.ts";\nexport const e = isError;\n`)).toEqual(
      inRoom(/cells is the ground.*formula\/ is not among: nothing; its types are/),
    );
    expect(await lint(planted[10]!, `import type { Program } from "../formula/program.ts";\nexport type P = Program;\n`)).toEqual([]);
    expect(await lint(planted[10]!, `import type { Manifest } from "../tiles/manifest.ts";\nexport type M = Manifest;\n`)).toEqual(
      inRoom(/cells is the ground.*tiles\//),
    );
    expect(await lint(planted[11]!, `import { Book } from "../workbook/book.ts";\nexport const b = Book;\n`)).toEqual(
      inRoom(/io reads and writes files as WorkbookData/),
    );
    expect(await lint(planted[11]!, `import type { Book } from "../workbook/book.ts";\nexport type B = Book;\n`)).toEqual([]);
    expect(await lint(planted[11]!, `import { cellAddress } from "../cells/cells.ts";\nexport const c = cellAddress;\n`)).toEqual([]);
  }, 120_000);

  it("a promise left floating, or passed where a callback's result is ignored, is an error", async () => {
    const messages = await lint(
      planted[2]!,
      `async function work(): Promise<void> {}\nwork();\nexport const handler = [1].forEach(async () => work());\n`,
    );
    expect(messages.map((m) => m.rule)).toEqual(["@typescript-eslint/no-floating-promises", "@typescript-eslint/no-misused-promises"]);
  }, 60_000);

  it("the owner's application reaches no store; its client layer imports nothing of the server", async () => {
    expect(await lint(planted[8]!, `import type { Store } from "../store/types.ts";\nexport type S = Store;\n`)).toEqual(
      restricted(/through the service layer/),
    );
    expect(await lint(planted[8]!, `import type { Services } from "../services/index.ts";\nexport type S = Services;\n`)).toEqual([]);
    expect(await lint(planted[9]!, `import { page } from "../layout.ts";\nexport const p = page;\n`)).toEqual(
      restricted(/runs in the browser/),
    );
    expect(await lint(planted[9]!, `import { startPage } from "./common.ts";\nexport const s = startPage;\n`)).toEqual([]);
  }, 120_000);
});

// src/ooxml/ is a leaf room (eslint.config.js): it imports src/core and packages only, never the
// .docx import, the spreadsheets or a service that call it. Planted as in ./boundaries.test.ts.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { root } from "../helpers/process.ts";

const planted = "src/ooxml/zz-planted.ts";
const eslint = new ESLint({
  cwd: root,
  overrideConfig: [
    { files: ["**/zz-planted.ts"], languageOptions: { parserOptions: { projectService: { allowDefaultProject: [planted] } } } },
  ],
});

async function lint(code: string): Promise<{ rule: string | null; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}/${planted}` });
  return result!.messages.map((m) => ({ rule: m.ruleId, message: m.message }));
}

describe("src/ooxml boundary (eslint.config.js)", () => {
  it("importing the .docx import, the spreadsheets or the service layer is an error; core and its own modules are fine", async () => {
    const refused = [{ rule: "no-restricted-imports", message: expect.stringMatching(/src\/ooxml imports only itself/) }];
    expect(await lint(`import { extractDocx } from "../documents/import/extract.ts";\nexport const x = extractDocx;\n`)).toEqual(refused);
    expect(await lint(`import type { Cell } from "../spreadsheets/types.ts";\nexport type C = Cell;\n`)).toEqual(refused);
    expect(await lint(`import type { Services } from "../services/index.ts";\nexport type S = Services;\n`)).toEqual(refused);
    expect(
      await lint(
        `import { GatewayError } from "../core/errors.ts";\nimport { Budget } from "./budget.ts";\nexport const x = [GatewayError, Budget];\n`,
      ),
    ).toEqual([]);
  }, 60_000);
});

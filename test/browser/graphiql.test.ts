// GraphiQL in a real headless Chromium: open /graphql, set the Authorization header, run a query.
// Without Chromium the file is skipped (one line says so), except under CI=true where that is a
// failure: .ci/run installs Debian's chromium (test/helpers/external.ts).
import { mkdir } from "node:fs/promises";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireProgram } from "../helpers/external.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";

const executablePath = requireProgram("chromium", {
  envVar: "CHROMIUM_PATH",
  install: "apt-get install -y chromium",
  purpose: "the GraphiQL browser test (test/browser/graphiql.test.ts)",
});

let tg: TestGateway;
let browser: Browser;

describe.skipIf(!executablePath)("GraphiQL", () => {
  beforeAll(async () => {
    tg = await startTestGateway();
    browser = await chromium.launch({
      executablePath: executablePath!,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await tg?.close();
  });

  it("runs { viewer { id } } with an Authorization header and shows the result", async () => {
    const key = await tg.key({ user: "browser-user" });
    const page = await browser.newPage();
    await page.goto(`${tg.url}/graphql`);
    await page.waitForSelector(".graphiql-query-editor .monaco-editor", { timeout: 30_000 });

    // GraphiQL's editors are Monaco: click into the visible one, select all, type over it.
    const setEditor = async (container: string, text: string) => {
      await page.locator(`${container} .monaco-editor .view-lines >> visible=true`).first().click();
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.press("Delete");
      await page.keyboard.insertText(text);
    };
    await setEditor(".graphiql-query-editor", "{ viewer { id } }");
    if ((await page.locator(".graphiql-editor-tool .monaco-editor >> visible=true").count()) === 0) {
      await page.getByRole("tab", { name: "Headers" }).click();
    }
    await setEditor(".graphiql-editor-tool", JSON.stringify({ Authorization: `Bearer ${key}` }));
    await page.locator(".graphiql-execute-button").click();

    const response = page.locator(".graphiql-response");
    await expect.poll(async () => response.innerText(), { timeout: 30_000 }).toContain('"browser-user"');
    await mkdir(new URL("../artifacts/", import.meta.url), { recursive: true });
    await page.screenshot({ path: new URL("../artifacts/graphiql.png", import.meta.url).pathname, fullPage: true });
  });
});

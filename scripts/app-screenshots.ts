// npm run screenshots:app — the pictures of docs/app.md: a gateway of its own (a temp store) with a
// few documents and spreadsheets made through the API, each page of the application opened in
// headless Chromium (Debian's; CHROMIUM_PATH to use another) and saved as docs/app/<page>.png.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { createApiKey } from "../src/auth/api-keys.ts";
import { createSignInLink } from "../src/auth/sessions.ts";
import { loadConfig } from "../src/core/config.ts";
import { createGateway } from "../src/gateway.ts";
import { listen } from "../src/server.ts";
import { launchChromium } from "../test/browser/app-helpers.ts";
import { findProgram } from "../test/helpers/external.ts";

const out = new URL("../docs/app/", import.meta.url);
const MEMO = `# Q3 review

The quarter closed **ahead of plan**: revenue grew 12% while costs stayed flat.

## Highlights

- Two new regions live, on schedule
- Support response time down to *4 hours*
- [The full figures](https://example.com/q3) are in the spreadsheet

| Region | Revenue | Growth |
|:--|--:|--:|
| North | 1.2 M | 9% |
| South | 0.8 M | 17% |
`;

async function main(): Promise<void> {
  const chromium = findProgram("chromium", "CHROMIUM_PATH");
  if (!chromium) throw new Error("chromium not found (apt-get install -y chromium, or set CHROMIUM_PATH)");
  const dataDir = await mkdtemp(join(tmpdir(), "wg-screenshots-"));
  const gateway = await createGateway(loadConfig({ LOG_LEVEL: "silent", DATA_DIR: dataDir, PORT: "0" }));
  const running = await listen(gateway, { port: 0, host: "127.0.0.1", shutdownTimeoutMs: 2_000 });
  const browser = await launchChromium(chromium);
  try {
    const gw = running.url;
    const { key } = await createApiKey(gateway.store, { userId: "dana" });
    const api = async (path: string, body: unknown, method = "POST") =>
      (await (
        await fetch(`${gw}${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).json()) as { id: string; url: string };
    await api("/api/v1/documents", { name: "Onboarding checklist", markdown: "# Onboarding\n\n- [ ] Laptop\n- [ ] Accounts" });
    const sheet = await api("/api/v1/spreadsheets", {
      name: "Q3 figures",
      sheets: [
        {
          name: "Revenue",
          values: [
            ["Region", "Q2", "Q3", "Growth"],
            ["North", 1100, 1200, "=C2/B2-1"],
            ["South", 684, 800, "=C3/B3-1"],
            ["Total", "=SUM(B2:B3)", "=SUM(C2:C3)", "=C4/B4-1"],
          ],
        },
        {
          name: "Costs",
          values: [
            ["Item", "Amount"],
            ["People", 900],
            ["Cloud", 120],
          ],
        },
      ],
    });
    const memo = await api("/api/v1/documents", { name: "Q3 review", markdown: MEMO });
    await api(`/api/v1/documents/${memo.id}`, { markdown: `${MEMO}\nNext review: October 14.\n` }, "PUT");
    const old = await api("/api/v1/documents", { name: "Old draft", markdown: "Draft" });
    await fetch(`${gw}/api/v1/documents/${old.id}`, { method: "DELETE", headers: { authorization: `Bearer ${key}` } });
    const docShare = await api(`/api/v1/documents/${memo.id}/shares`, {});
    const sheetShare = await api(`/api/v1/spreadsheets/${sheet.id}/shares`, {});

    await mkdir(out, { recursive: true });
    const context = await browser.newContext({ viewport: { width: 1280, height: 760 } });
    const page = await context.newPage();
    const shot = async (p: Page, name: string) => p.screenshot({ path: new URL(`${name}.png`, out).pathname });
    await page.goto(`${gw}/app/sign-in`);
    await shot(page, "sign-in");
    const { token } = await createSignInLink(gateway.store, { userId: "dana" });
    await page.goto(`${gw}/app/sign-in/link?token=${token}`);
    await shot(page, "list");
    await page.goto(`${gw}/app/documents/${memo.id}`);
    await shot(page, "document");
    await page.goto(`${gw}/app/documents/${memo.id}/edit`);
    await shot(page, "editor");
    await page.getByLabel("Markdown").fill(`${MEMO}\nMy edit.\n`);
    await api(`/api/v1/documents/${memo.id}`, { markdown: `${MEMO}\nTheir edit.\n` }, "PUT");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("button", { name: "Keep mine" }).waitFor();
    await shot(page, "conflict");
    await page.goto(`${gw}/app/documents/${memo.id}/history`);
    await shot(page, "history");
    await page.goto(`${gw}/app/documents/${memo.id}/share`);
    await page.getByRole("button", { name: "Create link" }).click();
    await page.getByLabel("Share link").waitFor();
    await shot(page, "share");
    await page.goto(`${gw}/app/trash`);
    await shot(page, "trash");
    await page.goto(`${gw}/app/spreadsheets/${sheet.id}`);
    await page.getByRole("grid").getByRole("row").nth(2).getByRole("gridcell").nth(3).click();
    await shot(page, "spreadsheet");
    const recipient = await (await browser.newContext({ viewport: { width: 1280, height: 640 } })).newPage();
    await recipient.goto(docShare.url.startsWith("http") ? docShare.url : `${gw}${docShare.url}`);
    await shot(recipient, "recipient-document");
    await recipient.goto(sheetShare.url.startsWith("http") ? sheetShare.url : `${gw}${sheetShare.url}`);
    await shot(recipient, "recipient-spreadsheet");
    process.stdout.write(`screenshots written to ${out.pathname}\n`);
  } finally {
    await browser.close();
    await running.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();

// The owner's application as a person uses it, in a real headless Chromium (docs/app.md): sign in
// each way (a key typed into the form, a one-time link, OpenID Connect against a real provider),
// create and edit a document with its live preview, resolve a conflicting save, restore a
// version, share it and open the link in a fresh browser context, trash and restore it, import a
// file, edit a spreadsheet cell and see its dependents recalculate. Every page is checked with
// axe-core's WCAG 2.x A/AA rules. Without Chromium the file is skipped (one line says so), except
// under CI=true (test/helpers/external.ts).
import { mkdir, writeFile } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSignInLink } from "../../src/auth/sessions.ts";
import { requireProgram } from "../helpers/external.ts";
import { startTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { listenOidcProvider, OIDC_CLIENT, type TestOidcProvider } from "../helpers/oidc.ts";
import { axeViolations, launchChromium, type AxeViolation } from "./app-helpers.ts";

const executablePath = requireProgram("chromium", {
  envVar: "CHROMIUM_PATH",
  install: "apt-get install -y chromium",
  purpose: "the owner's application's browser tests (test/browser/app.test.ts)",
});

const ALL = ["docs:read", "docs:write", "sheets:read", "sheets:write"];
let tg: TestGateway;
let provider: TestOidcProvider;
let browser: Browser;
let key: string;
/** Every page checked, by name: axe's violations there. */
const audited = new Map<string, AxeViolation[]>();
const started = Date.now();

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${tg.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...init.headers } });

async function audit(page: Page, name: string): Promise<void> {
  audited.set(name, await axeViolations(page));
}

async function signedInPage(): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const { token } = await createSignInLink(tg.gateway.store, { userId: "browser-owner" });
  await page.goto(`${tg.url}/app/sign-in/link?token=${token}`);
  await expect.poll(() => page.url()).toBe(`${tg.url}/app`);
  return page;
}

describe.skipIf(!executablePath)("the owner's application in a browser", () => {
  beforeAll(async () => {
    provider = await listenOidcProvider();
    tg = await startTestGateway({
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: OIDC_CLIENT.id,
      OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
      OIDC_PROVIDER_NAME: "Suite ID",
    });
    provider.start(`${tg.url}/app/sign-in/oidc/callback`);
    browser = await launchChromium(executablePath!);
    key = await tg.key({ user: "browser-owner", scopes: ALL });
  });
  afterAll(async () => {
    await browser?.close();
    await tg?.close();
    await provider?.close();
    if (audited.size > 0) {
      await mkdir(new URL("../artifacts/", import.meta.url), { recursive: true });
      const report = { seconds: Math.round((Date.now() - started) / 1000), pages: Object.fromEntries(audited) };
      await writeFile(new URL("../artifacts/app-axe.json", import.meta.url), `${JSON.stringify(report, null, 2)}\n`);
    }
  });

  it("signs in with an API key typed into the form", async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${tg.url}/app`);
    await expect.poll(() => new URL(page.url()).pathname).toBe("/app/sign-in");
    await audit(page, "sign-in");
    await page.getByLabel("API key").fill(key);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByLabel("Search").waitFor();
    expect(new URL(page.url()).pathname).toBe("/app");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("API key").waitFor();
  });

  it("signs in with a one-time link, and with OpenID Connect", async () => {
    const page = await signedInPage();
    await expect(page.getByRole("link", { name: "Trash" }).isVisible()).resolves.toBe(true);
    const oidc = await (await browser.newContext()).newPage();
    await oidc.goto(`${tg.url}/app/sign-in`);
    await oidc.getByRole("link", { name: "Sign in with Suite ID" }).click();
    await oidc.locator('input[name="login"]').fill("browser-oidc");
    await oidc.locator('input[name="password"]').fill("anything");
    await oidc.getByRole("button", { name: "Sign-in" }).click();
    await oidc.getByRole("button", { name: "Continue" }).click();
    await oidc.getByLabel("Search").waitFor();
    expect(new URL(oidc.url()).pathname).toBe("/app");
  });

  it("creates a document, edits it with a live preview, resolves a conflict, restores a version", async () => {
    const page = await signedInPage();
    await audit(page, "list (empty)");
    await page.getByRole("button", { name: "New document" }).click();
    await page.getByLabel("Markdown").waitFor();
    await page.getByLabel("Name").fill("Browser memo");
    await page.getByLabel("Markdown").fill("# First heading\n\nSome *text*.");
    const preview = page.getByRole("region", { name: "Preview" });
    await preview.getByRole("heading", { name: "First heading" }).waitFor();
    await audit(page, "editor");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { name: "Browser memo", level: 1 }).waitFor();
    await page.getByText("Saved.").waitFor();
    await audit(page, "document");
    const id = new URL(page.url()).pathname.split("/")[3]!;

    // A conflict: someone saves through the API while this editor is open.
    await page.getByRole("link", { name: "Edit" }).click();
    await page.getByLabel("Markdown").fill("# Mine\n\nmy words");
    const current = (await (await api(`/api/v1/documents/${id}`)).json()) as { version: number };
    await api(`/api/v1/documents/${id}`, {
      method: "PUT",
      body: JSON.stringify({ markdown: "# Theirs\n\ntheir words" }),
      headers: { "if-match": `"v${current.version}"` },
    });
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("button", { name: "Keep mine" }).waitFor();
    await expect(page.getByRole("button", { name: "Keep theirs" }).isVisible()).resolves.toBe(true);
    await expect(page.getByText("their words").isVisible()).resolves.toBe(true);
    await audit(page, "conflict");
    await page.getByRole("button", { name: "Keep mine" }).click();
    await page.getByRole("heading", { name: "Mine" }).waitFor();

    // History: version 2 (the first save) back as the newest.
    await page.getByRole("link", { name: "History" }).click();
    await page.getByRole("table").waitFor();
    await audit(page, "history");
    const rows = page.getByRole("row");
    const firstSave = rows.filter({ hasText: "Version 2" });
    await firstSave.getByRole("link", { name: "Version 2" }).click();
    await page.getByRole("button", { name: "Restore" }).waitFor();
    await audit(page, "document version");
    await page.getByRole("button", { name: "Restore" }).click();
    await page.getByText("That version is now the newest one.").waitFor();
    await page.getByRole("heading", { name: "First heading" }).waitFor();
  });

  it("shares a document and opens the link in a fresh browser context; trashes and restores it", async () => {
    const page = await signedInPage();
    const created = (await (
      await api("/api/v1/documents", { method: "POST", body: JSON.stringify({ name: "Shared plan", markdown: "# Plan\n\nFor everyone." }) })
    ).json()) as { id: string };
    await page.reload();
    await page.getByRole("link", { name: "Shared plan" }).click();
    await page.getByRole("button", { name: "Share" }).click();
    await page.getByLabel("Expires in").selectOption({ label: "1 day" });
    await page.getByRole("button", { name: "Create link" }).click();
    const link = await page.getByLabel("Share link").inputValue();
    expect(link).toMatch(new RegExp(`^${tg.url}/api/v1/shared/`));
    await audit(page, "share");

    const recipient = await (await browser.newContext()).newPage();
    await recipient.goto(link);
    await recipient.getByRole("heading", { name: "Plan", exact: true }).waitFor();
    await expect(recipient.getByRole("link", { name: "Download" }).isVisible()).resolves.toBe(true);
    await audit(recipient, "recipient (document)");

    await page.getByRole("button", { name: "Revoke" }).click();
    await page.getByText("The link no longer works.").waitFor();
    expect((await recipient.goto(link))?.status()).toBe(404);

    await page.goto(`${tg.url}/app/documents/${created.id}`);
    await page.getByRole("button", { name: "Move to trash" }).click();
    await page.getByText("Moved to the trash.").waitFor();
    await expect(page.getByRole("link", { name: "Shared plan" }).count()).resolves.toBe(0);
    await page.getByRole("link", { name: "Trash" }).click();
    await page.getByRole("row", { name: /Shared plan/ }).waitFor();
    await audit(page, "trash");
    await page
      .getByRole("row", { name: /Shared plan/ })
      .getByRole("button", { name: "Restore" })
      .click();
    await page.getByText("Restored.").waitFor();
    await page.getByRole("link", { name: "Workspace" }).click();
    await page.getByRole("link", { name: "Shared plan" }).waitFor();
  });

  it("edits a spreadsheet cell and sees its dependents recalculate; imports a file by the file picker", async () => {
    const page = await signedInPage();
    await api("/api/v1/spreadsheets", {
      method: "POST",
      body: JSON.stringify({
        name: "Browser budget",
        sheets: [
          {
            name: "Costs",
            values: [
              ["Qty", "Total"],
              [2, "=A2*10"],
              [null, "=B2+1"],
            ],
          },
          { name: "Notes" },
        ],
      }),
    });
    await page.reload();
    await page.getByRole("link", { name: "Browser budget" }).click();
    const grid = page.getByRole("grid");
    await grid.waitFor();
    await expect(grid.getByRole("columnheader").allInnerTexts()).resolves.toEqual(expect.arrayContaining(["A", "B", "C"]));
    await expect(page.getByRole("tab", { name: "Costs" }).getAttribute("aria-selected")).resolves.toBe("true");
    await audit(page, "spreadsheet");
    const row2 = grid.getByRole("row").nth(2);
    await row2.getByRole("gridcell").nth(1).click();
    await expect(page.getByLabel("Formula").inputValue()).resolves.toBe("=A2*10");
    await row2.getByRole("gridcell").nth(0).click();
    await page.getByLabel("Formula").fill("7");
    await page.getByLabel("Formula").press("Enter");
    await expect.poll(() => row2.getByRole("gridcell").nth(1).innerText()).toBe("70");
    await expect.poll(() => grid.getByRole("row").nth(3).getByRole("gridcell").nth(1).innerText()).toBe("71");
    // A written formula shows as Excel shows it (General, 11 characters), aligned as a number, its
    // full value as the cell's description; the formula bar keeps the formula.
    const c2 = row2.getByRole("gridcell").nth(2);
    await c2.click();
    await page.getByLabel("Formula").fill("=B3/B2-1");
    await page.getByLabel("Formula").press("Enter");
    await expect.poll(() => c2.innerText()).toBe("0.014285714");
    await expect(c2.getAttribute("title")).resolves.toBe("0.0142857142857142");
    await expect(c2.evaluate((td) => getComputedStyle(td).textAlign)).resolves.toBe("right");
    await expect(
      row2
        .getByRole("gridcell")
        .nth(0)
        .evaluate((td) => getComputedStyle(td).textAlign),
    ).resolves.toBe("right");
    await expect(
      grid
        .getByRole("row")
        .nth(1)
        .getByRole("gridcell")
        .nth(0)
        .evaluate((td) => getComputedStyle(td).textAlign),
    ).resolves.toMatch(/^(left|start)$/);
    await c2.click();
    await expect(page.getByLabel("Formula").inputValue()).resolves.toBe("=B3/B2-1");
    // A dynamic array spills into the grid; Enter on a spilled cell without typing writes nothing (the spill stays).
    await row2.getByRole("gridcell").nth(2).click();
    await page.getByLabel("Formula").fill("=SEQUENCE(2)*5");
    await page.getByLabel("Formula").press("Enter");
    const spilled = grid.getByRole("row").nth(3).getByRole("gridcell").nth(2);
    await expect.poll(() => spilled.innerText()).toBe("10");
    const version = await page.locator("#sheet-version").innerText();
    await spilled.click();
    await expect(page.getByLabel("Formula").inputValue()).resolves.toBe("10");
    await page.getByLabel("Formula").press("Enter");
    await expect.poll(() => grid.getByRole("row").nth(4).getByRole("gridcell").nth(2).getAttribute("aria-selected")).toBe("true");
    await expect(page.locator("#sheet-version").innerText()).resolves.toBe(version);
    await expect(row2.getByRole("gridcell").nth(2).innerText()).resolves.toBe("5");
    await page.getByRole("tab", { name: "Notes" }).click();
    await expect.poll(() => page.getByRole("tab", { name: "Notes" }).getAttribute("aria-selected")).toBe("true");
    await page.getByRole("link", { name: "History" }).click();
    await page.getByRole("table").waitFor();
    await audit(page, "spreadsheet history");

    // Import a .csv with the file picker: it becomes a spreadsheet.
    await page.getByRole("link", { name: "Workspace" }).click();
    await audit(page, "list");
    await page
      .getByLabel("Import")
      .setInputFiles({ name: "Imported rows.csv", mimeType: "text/csv", buffer: Buffer.from("a,b\n1,=A2*3\n") });
    await page.getByRole("heading", { name: "Imported rows", level: 1 }).waitFor();
    await expect(page.getByRole("grid").getByRole("gridcell", { name: "3", exact: true }).count()).resolves.toBe(1);
    const share = await page.getByRole("button", { name: "Share" });
    await share.click();
    await page.getByRole("button", { name: "Create link" }).click();
    const recipient = await (await browser.newContext()).newPage();
    await recipient.goto(await page.getByLabel("Share link").inputValue());
    await recipient.getByRole("grid").waitFor();
    await audit(recipient, "recipient (spreadsheet)");
    await page.goto(`${tg.url}/app/documents/doc_01J0000000000000000000000A`);
    await audit(page, "not found");
  });

  it("no page has a WCAG 2.x A or AA violation (axe-core)", async () => {
    // The check itself sees a violation where there is one.
    const probe = await (await browser.newContext()).newPage();
    await probe.setContent('<html lang="en"><title>probe</title><main><input type="text"></main></html>');
    expect((await axeViolations(probe)).map((v) => v.id)).toContain("label");
    expect(audited.size).toBeGreaterThanOrEqual(15);
    const violations = [...audited].flatMap(([name, found]) =>
      found.map((v) => `${name}: ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    );
    expect(violations).toEqual([]);
  });
});

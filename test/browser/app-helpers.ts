// What the application's browser tests share: Chromium as the project runs it (Debian's, headless,
// a fresh profile; no browser download), and axe-core's WCAG A/AA rules run on a page. axe is
// evaluated through the DevTools protocol, which the pages' Content-Security-Policy does not
// govern, so the pages are checked exactly as served.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium, type Browser, type Page } from "playwright-core";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const launchChromium = (executablePath: string): Promise<Browser> => chromium.launch({ executablePath, args: CHROMIUM_ARGS });

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's WCAG 2.x A and AA rules on the page as it is now; the violations, each with where. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  return page.evaluate(async (tags) => {
    const result = await (
      window as unknown as { axe: { run(context: Document, options: unknown): Promise<{ violations: AxeViolation[] }> } }
    ).axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  }, WCAG_TAGS);
}

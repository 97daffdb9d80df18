// The docs' relative links lead somewhere: every `[text](path)` and `[text](path#anchor)` in the
// README, docs/*.md and the sandbox's README names a file of the repository (never one beside it,
// like ../shared) and, with an anchor, a heading of that file (GitHub's heading ids).
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const files = [
  "README.md",
  "test/sandbox/README.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** GitHub's id for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.+?)\s*#*$/.exec(line);
    if (heading) anchors.add(slug(heading[1]!));
  }
  return anchors;
}

const links = files.flatMap((file) => {
  // Links in code (fenced blocks, code spans) are examples, not links.
  const markdown = readFileSync(join(root, file), "utf8")
    .replace(/^(```|~~~)[\s\S]*?^\1/gm, "")
    .replace(/(`+)[\s\S]*?\1/g, "");
  return [...markdown.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => [file, target] as const);
});

describe("relative links in the docs", () => {
  it("there are links to check", () => {
    expect(links.length).toBeGreaterThan(10);
  });

  it.each(links)("%s → %s", (file, target) => {
    const [path, anchor] = target.split("#") as [string, string | undefined];
    const absolute = path === "" ? join(root, file) : resolve(dirname(join(root, file)), decodeURI(path));
    expect(relative(root, absolute).startsWith(".."), `${target} leaves the repository`).toBe(false);
    expect(existsSync(absolute), `${target} exists`).toBe(true);
    if (anchor) expect([...anchorsOf(readFileSync(absolute, "utf8"))], `${target}: a heading with that id`).toContain(anchor);
  });
});

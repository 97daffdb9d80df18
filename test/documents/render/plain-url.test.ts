import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { plainUrl, plainUrlText, shortcutPlainUrls } from "../../../src/documents/render/plain-url.ts";

/** A small seeded generator (mulberry32), so a failure names a URL that comes back on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PREFIXES = ["http://", "https://", "https://", "https://", "HTTP://", "Https://", "ftp://", "mailto:", "//", "", "javascript:"];
const HOST_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-".repeat(4) + "ABC_+é.:@%xn--";
const PATH_CHARS =
  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".repeat(2) + ";/?:@&=+$,-_.!~*'()#%%[]{}|\\^`<>\" é€😀\u00a0";

function generated(count: number): string[] {
  const next = random(28);
  const pick = (chars: string) => [...chars][Math.floor(next() * [...chars].length)]!;
  const urls: string[] = [];
  for (let i = 0; i < count; i++) {
    const labels = Array.from({ length: 1 + Math.floor(next() * 4) }, () => {
      // Mostly short labels; now and then one at or past the 63-character limit.
      const length = next() < 0.05 ? 62 + Math.floor(next() * 3) : 1 + Math.floor(next() * 12);
      return Array.from({ length }, () => (next() < 0.9 ? pick("abcdefghijklmnopqrstuvwxyz0123456789-") : pick(HOST_CHARS))).join("");
    });
    const path = Array.from({ length: Math.floor(next() * 30) }, () =>
      next() < 0.1 ? `%${pick("0123456789abcdefABCDEFg")}${pick("0123456789abcdefABCDEFz")}` : pick(PATH_CHARS),
    ).join("");
    const start = next() < 0.8 ? pick("/?#") : "";
    urls.push(`${PREFIXES[Math.floor(next() * PREFIXES.length)]}${labels.join(".")}${start}${path}`);
  }
  return urls;
}

/** Hosts at and past mdurl's limits: a 63- and a 64-character label, a 255- and a 256-character host. */
const LIMITS = [
  `https://${"a".repeat(63)}.com/x`,
  `https://${"a".repeat(64)}.com/x`,
  `https://${Array.from({ length: 4 }, () => "b".repeat(63)).join(".")}/x`,
  `https://${Array.from({ length: 4 }, () => "b".repeat(63)).join(".")}c/x`,
  "https://example.com",
  "https://example.com#top",
  "https://example.com?q=1",
  "https://example.com/a%2Fb%zz",
  "https://xn--caf-dma.example/menu",
  "https://example..com/",
  "https://example.com./",
  "https://user@example.com/",
  "https://example.com:8080/",
];

describe("plain URLs skip markdown-it's link normalisation", () => {
  const reference = new MarkdownIt();
  const md = new MarkdownIt();
  shortcutPlainUrls(md);
  const urls = [...LIMITS, ...generated(20_000)];

  it("gives what markdown-it's normalizeLink gives, for every URL", () => {
    const different = urls.filter((url) => md.normalizeLink(url) !== reference.normalizeLink(url));
    expect(different).toEqual([]);
  });

  it("gives what markdown-it's normalizeLinkText gives, for every URL", () => {
    const different = urls.filter((url) => md.normalizeLinkText(url) !== reference.normalizeLinkText(url));
    expect(different).toEqual([]);
  });

  it("takes the shortcut for the usual links, and not for the rest", () => {
    for (const url of ["https://example.com/a/b?c=d&e=f#g", "http://docs.example.org/v1.2/api_(old)", "https://example.com/a%20b"]) {
      expect(plainUrl(url)).toBe(true);
    }
    expect(plainUrlText("https://example.com/a%20b")).toBe(false);
    expect(plainUrlText("https://xn--caf-dma.example/")).toBe(false);
    for (const url of [
      "https://Example.com/",
      "https://example.com/café",
      "https://example.com/a b",
      "mailto:a@example.com",
      `https://${"a".repeat(64)}.com/`,
    ]) {
      expect(plainUrl(url)).toBe(false);
    }
    // The generated URLs exercise both paths, so the comparisons above test the shortcut.
    const plain = urls.filter(plainUrl).length;
    expect(plain).toBeGreaterThan(urls.length / 20);
    expect(plain).toBeLessThan(urls.length / 2);
  });
});

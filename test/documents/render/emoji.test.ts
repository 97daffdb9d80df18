// GitHub's emoji shortcodes (src/documents/render/emoji.ts) against gemoji's list, the data GitHub's
// own shortcodes come from: every name, aliases included, renders as its emoji; what is not a
// shortcode stays as written.
import { gemoji } from "gemoji";
import { describe, expect, it } from "vitest";
import { EMOJI } from "../../../src/documents/render/emoji.ts";
import { mammothText, render } from "./docx.ts";

const names = gemoji.flatMap((entry) => entry.names.map((name) => [name, entry.emoji] as const));

describe("emoji shortcodes", () => {
  it("know every name in gemoji's list (aliases too), the ten CJK ones markdown-it-emoji lacked included", () => {
    expect(names.length).toBeGreaterThan(1_900);
    expect(EMOJI.size).toBe(names.length);
    for (const name of ["u6708", "u6709", "u6307", "u5272", "u7121", "u7981", "u7533", "u5408", "u7a7a", "u55b6"])
      expect(EMOJI.has(name)).toBe(true);
  });

  it("render the whole list as the emoji, in a paragraph and in a table", async () => {
    const paragraph = names.map(([name]) => `:${name}:`).join(" ");
    const rows = names.slice(0, 300).map(([name]) => `| :${name}: | \`:${name}:\` |`);
    const parts = await render(`${paragraph}\n\n| ico | code |\n| - | - |\n${rows.join("\n")}\n`);
    const [first, ...cells] = parts.text.split("\n\n");
    expect(first).toBe(names.map(([, emoji]) => emoji).join(" "));
    // Cells: header, then per row the emoji and the code span's shortcode as written.
    expect(cells.slice(2)).toEqual(names.slice(0, 300).flatMap(([name, emoji]) => [emoji, `:${name}:`]));
    expect(parts.text).toBe(await mammothText(parts.docx));
  });

  it("leave unknown names, code, autolinks, emoticons and case changes as written", async () => {
    const parts = await render(
      "a :not_an_emoji: b :Smile: c `:smile:` d https://example.com/:smile:/x e :-) <3 f ::smile:: g :not:smile: h\n",
    );
    expect(parts.text).toBe(
      "a :not_an_emoji: b :Smile: c :smile: d https://example.com/:smile:/x e :-) <3 f :\u{1F604}: g :not\u{1F604} h",
    );
  });
});

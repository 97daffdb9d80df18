// GFM's extended e-mail autolinks (src/documents/render/email-autolink.ts): the GFM spec's examples
// as cmark-gfm links them, and the one exception, package versions, which stay text.
import { describe, expect, it } from "vitest";
import { findEmails } from "../../../src/documents/render/email-autolink.ts";
import { parseMarkdown } from "../../../src/documents/render/markdown.ts";

/** A paragraph's inline tokens as text with each link as <href|text>. */
function linked(markdown: string): string {
  const inline = parseMarkdown(markdown).find((t) => t.type === "inline")!;
  let out = "";
  for (const token of inline.children ?? []) {
    if (token.type === "link_open") out += `<${token.attrGet("href")}|`;
    else if (token.type === "link_close") out += ">";
    else if (token.type === "softbreak") out += " ";
    else out += token.content;
  }
  return out;
}

describe("extended e-mail autolinks (GFM spec examples)", () => {
  it.each([
    ["foo@bar.baz", "<mailto:foo@bar.baz|foo@bar.baz>"],
    [
      "hello@mail+xyz.example isn't valid, but hello+xyz@mail.example is.",
      "hello@mail+xyz.example isn't valid, but <mailto:hello+xyz@mail.example|hello+xyz@mail.example> is.",
    ],
    ["a.b-c_d@a.b", "<mailto:a.b-c_d@a.b|a.b-c_d@a.b>"],
    ["a.b-c_d@a.b.", "<mailto:a.b-c_d@a.b|a.b-c_d@a.b>."],
    ["a.b-c_d@a.b-", "a.b-c_d@a.b-"],
    ["a.b-c_d@a.b_", "a.b-c_d@a.b_"],
  ])("%s", (markdown, expected) => {
    expect(linked(markdown)).toBe(expected);
  });
});

describe("e-mail autolinks beyond the spec's examples", () => {
  it.each([
    ["a domain without a period, or ending in a digit, is no address", "me@localhost and a@b.c1", "me@localhost and a@b.c1"],
    [
      "any top-level domain links, as on GitHub",
      "x@y.co.uk and x@corp.internal",
      "<mailto:x@y.co.uk|x@y.co.uk> and <mailto:x@corp.internal|x@corp.internal>",
    ],
    ["a domain starting with digits is an address", "mail@163.com", "<mailto:mail@163.com|mail@163.com>"],
    ["a second @ starts the address again", "@ab+cd@x.com", "@<mailto:ab+cd@x.com|ab+cd@x.com>"],
    ["non-ASCII domains are not GFM's", "test@домен.рф", "test@домен.рф"],
    [
      "an address in a link is the link's text only",
      "[write](https://example.com) or [me@x.com](https://example.com/me)",
      "<https://example.com|write> or <https://example.com/me|me@x.com>",
    ],
    [
      "nor inside raw HTML's <a>",
      '<a href="https://example.com">me@x.com</a> but you@x.com',
      '<a href="https://example.com">me@x.com</a> but <mailto:you@x.com|you@x.com>',
    ],
    ["an address between entities", "TJ &lt;tj@vision-media.ca&gt;", "TJ <<mailto:tj@vision-media.ca|tj@vision-media.ca>>"],
  ])("%s", (_, markdown, expected) => {
    expect(linked(markdown)).toBe(expected);
  });

  it.each(["send@1.0.0", "express@4.18.2", "react@18.2.0-rc", "webpack@5.0.0-beta.1", "lodash@4.x", "pkg@1.*", "@types/node@20.1.0"])(
    "a package version is not an address: %s",
    (version) => {
      expect(linked(`install ${version} first`)).toBe(`install ${version} first`);
    },
  );

  it("findEmails gives each address's span once, in order", () => {
    const text = "a@b.io, c.d+e@f-g.h_i.org. x@y z@1.2.3 w@a.b-";
    expect(findEmails(text).map(([start, end]) => text.slice(start, end))).toEqual(["a@b.io", "c.d+e@f-g.h_i.org"]);
  });
});

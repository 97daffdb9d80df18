// mammoth's HTML as a small tree, parsed with htmlparser2 (entities decoded, nothing else done).
import { Parser } from "htmlparser2";
import { LIST_START } from "./lists.ts";

export interface HtmlElement {
  tag: string;
  attrs: Record<string, string>;
  children: HtmlNode[];
}

export type HtmlNode = string | HtmlElement;

const VOID = new Set(["br", "img", "hr"]);

export function parseHtml(html: string): HtmlNode[] {
  const root: HtmlElement = { tag: "#root", attrs: {}, children: [] };
  const stack: HtmlElement[] = [root];
  const parser = new Parser(
    {
      onopentag(tag, attrs) {
        const element: HtmlElement = { tag, attrs, children: [] };
        stack[stack.length - 1]!.children.push(element);
        if (!VOID.has(tag)) stack.push(element);
      },
      ontext(text) {
        const children = stack[stack.length - 1]!.children;
        const last = children[children.length - 1];
        if (typeof last === "string") children[children.length - 1] = last + text;
        else children.push(text);
      },
      onclosetag(tag) {
        if (VOID.has(tag)) return;
        if (stack.length > 1 && stack[stack.length - 1]!.tag === tag) stack.pop();
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return root.children;
}

/** Whether a node's first text carries LIST_START (./lists.ts): its list item begins a new list. */
export function startsList(node: HtmlNode): boolean {
  if (typeof node === "string") return node.startsWith(LIST_START);
  const first = node.children[0];
  return first !== undefined && startsList(first);
}

/** The text of a node with every tag removed; <br> is a line ending. */
export function textContent(node: HtmlNode): string {
  if (typeof node === "string") return node.replaceAll(LIST_START, "");
  if (node.tag === "br") return "\n";
  return node.children.map(textContent).join("");
}

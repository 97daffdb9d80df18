// A formula's tokens as the compiler takes them (@borgar/fx): references merged into one token each,
// and the .xlsx spellings of LET and LAMBDA (_xlfn.LET, _xlpm.x) read as Excel shows them, so that
// the parser builds LET and LAMBDA nodes from either form.
import { parse, tokenize, type Token } from "@borgar/fx";
import type { AstNode } from "./compile-node.ts";

const SYNTAX = /^_xlfn\.(LET|LAMBDA)$/i;
const PARAMETER = /^_xlpm\./i;

/** The tokens of a formula written with or without "=" (the "=" token is dropped). */
export function formulaTokens(source: string, withLocation = false): Token[] {
  const text = source.startsWith("=") ? source : `=${source}`;
  const tokens = tokenize(text, { mergeRefs: true, allowTernary: false, withLocation });
  for (const token of tokens) {
    if (token.type === "func" && SYNTAX.test(token.value)) token.value = token.value.slice(6).toUpperCase();
    else if (token.type === "range_named" && PARAMETER.test(token.value)) token.value = token.value.slice(6);
  }
  return tokens.filter((t) => t.type !== "fx_prefix");
}

/** The syntax tree of tokens from formulaTokens; throws when they do not parse. */
export const parseTokens = (tokens: Token[]): AstNode => parse(tokens) as unknown as AstNode;

/**
 * .xlsx's spellings of "@" and "#" as Excel shows them: _xlfn.SINGLE(x) → @x, _xlfn.ANCHORARRAY(A1) →
 * A1#. Text without either comes back as it is; text that does not parse too.
 */
export function displayForm(source: string): string {
  if (!/SINGLE|ANCHORARRAY/i.test(source)) return source;
  let tokens: Token[];
  let ast: AstNode;
  try {
    tokens = formulaTokens(source, true);
    ast = parseTokens(tokens);
  } catch {
    return source;
  }
  const offset = source.startsWith("=") ? 0 : 1;
  const edits: [number, number, string][] = [];
  const visit = (node: AstNode | null | undefined): void => {
    if (!node) return;
    const name = (node.callee?.name ?? "").toUpperCase().replace(/^_XLFN\./, "");
    const arg = node.arguments?.[0];
    if (
      node.type === "CallExpression" &&
      node.arguments?.length === 1 &&
      arg?.loc &&
      node.loc &&
      (name === "SINGLE" || name === "ANCHORARRAY")
    ) {
      const inner = source.slice(arg.loc[0] - offset, arg.loc[1] - offset);
      const atomic = arg.type === "ReferenceIdentifier" || arg.type === "CallExpression";
      if (name === "SINGLE")
        edits.push([node.loc[0] - offset, node.loc[1] - offset, atomic ? `@${displayForm(inner)}` : `@(${displayForm(inner)})`]);
      else if (arg.type === "ReferenceIdentifier") edits.push([node.loc[0] - offset, node.loc[1] - offset, `${inner}#`]);
      if (name === "SINGLE" || arg.type === "ReferenceIdentifier") return;
    }
    for (const a of node.arguments ?? []) visit(a);
    for (const row of node.elements ?? []) for (const el of row) visit(el);
    for (const d of node.declarations ?? []) visit(d.init);
    visit(node.body);
  };
  visit(ast);
  let out = source;
  for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + text + out.slice(end);
  return out;
}

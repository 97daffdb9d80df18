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

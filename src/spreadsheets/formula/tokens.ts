// A formula's tokens as the compiler takes them (@borgar/fx): references merged into one token each,
// and the .xlsx spellings of LET and LAMBDA (_xlfn.LET, _xlpm.x) read as Excel shows them, so that
// the parser builds LET and LAMBDA nodes from either form.
import { parse, tokenize, type Token } from "@borgar/fx";
import type { AstNode } from "./compile-node.ts";

const SYNTAX = /^_xlfn\.(LET|LAMBDA)$/i;
const PARAMETER = /^_xlpm\./i;

/** A row number as a reference writes it (after a column letter or "$"): 1 to 1048576, no leading zero. */
const ROW_NUMBER = /(?<=[A-Za-z$])[1-9]\d{0,6}(?!\d)/g;
const MAX_ROW_NUMBER = 1_048_576;
/** Token lists by template; bounded, since any text may come (it is emptied when full). */
const TEMPLATES = new Map<string, Token[]>();
const MAX_TEMPLATES = 4096;

/**
 * The text with its row numbers masked (each digit as \0, so lengths and positions stay): the
 * formulas of a column ("=B2*2", "=B3*2", …) share it. The tokenizer reads a row number only as
 * valid (1 to 1048576) or not, and every masked one is valid, so texts of one template tokenize
 * to the same types at the same positions, with their own values.
 */
const templateOf = (text: string) => text.replace(ROW_NUMBER, (d) => (Number(d) <= MAX_ROW_NUMBER ? "\0".repeat(d.length) : d));

/** Fresh tokens of `text` from its template's (the caller may change them). */
function fromTemplate(known: Token[], text: string, withLocation: boolean): Token[] {
  // Fields written out, not object rest/spread: the spread was most of a 202,000-formula load's
  // token time. A template holds only these fields (see COPIED).
  const tokens: Token[] = new Array(known.length);
  for (let i = 0; i < known.length; i++) {
    const { type, loc, unterminated } = known[i] as Token;
    const [start, end] = loc as [number, number];
    const token: Token = { type, value: text.slice(start, end) };
    if (unterminated !== undefined) token.unterminated = unterminated;
    if (withLocation) token.loc = [start, end];
    tokens[i] = token;
  }
  return tokens;
}

/** The fields fromTemplate copies; a token list with any other is not kept as a template. */
const COPIED = new Set(["type", "value", "loc", "unterminated"]);

/** The tokens of a text starting with "=" (tokenized once per template). */
function rawTokens(text: string, withLocation: boolean): Token[] {
  // A NUL written in the text would read as a masked digit.
  if (text.includes("\0")) return tokenize(text, { mergeRefs: true, allowTernary: false, withLocation });
  const template = templateOf(text);
  const known = TEMPLATES.get(template);
  if (known) return fromTemplate(known, text, withLocation);
  const tokens = tokenize(text, { mergeRefs: true, allowTernary: false, withLocation: true });
  // Kept only when each value is its text's slice, as the copies' values are.
  if (tokens.every((t) => t.loc && text.slice(t.loc[0], t.loc[1]) === t.value && Object.keys(t).every((key) => COPIED.has(key)))) {
    if (TEMPLATES.size >= MAX_TEMPLATES) TEMPLATES.clear();
    TEMPLATES.set(template, tokens);
    return fromTemplate(tokens, text, withLocation);
  }
  if (!withLocation) for (const token of tokens) delete token.loc;
  return tokens;
}

/** The tokens of a formula written with or without "=" (the "=" token is dropped). */
export function formulaTokens(source: string, withLocation = false): Token[] {
  const text = source.startsWith("=") ? source : `=${source}`;
  const tokens = rawTokens(text, withLocation);
  for (const token of tokens) {
    if (token.type === "func" && SYNTAX.test(token.value)) token.value = token.value.slice(6).toUpperCase();
    else if (token.type === "range_named" && PARAMETER.test(token.value)) token.value = token.value.slice(6);
  }
  return tokens.filter((t) => t.type !== "fx_prefix");
}

/** The syntax tree of tokens from formulaTokens; throws when they do not parse. */
export const parseTokens = (tokens: Token[]): AstNode => parse(tokens) as unknown as AstNode;

/** The tokens, with their character positions, and the syntax tree of a formula; null when it does not parse. */
export function parseLocated(source: string): { tokens: Token[]; ast: AstNode } | null {
  try {
    const tokens = formulaTokens(source, true);
    return { tokens, ast: parseTokens(tokens) };
  } catch {
    return null;
  }
}

/**
 * .xlsx's spellings of "@" and "#" as Excel shows them: _xlfn.SINGLE(x) → @x, _xlfn.ANCHORARRAY(A1) →
 * A1#. Text without either comes back as it is; text that does not parse too.
 */
export function displayForm(source: string): string {
  if (!/SINGLE|ANCHORARRAY/i.test(source)) return source;
  const tree = parseLocated(source);
  if (!tree) return source;
  const { ast } = tree;
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

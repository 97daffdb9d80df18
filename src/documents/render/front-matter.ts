// YAML front matter (`---` … `---` at the very start of a file, as Jekyll, Hugo and docs sites
// write it). Read as markdown it would be a rule and a run-together setext heading; GitHub shows
// it as a table and pandoc takes it as metadata. Here it is a two-column table (key, value) at
// the document's start, and its `title` becomes the document's title (core properties).
import { createRequire } from "node:module";
import type * as Yaml from "yaml";

/** yaml is loaded on the first front matter: most documents have none, and each render worker would hold it (~1 MB). */
let yaml: typeof Yaml | undefined;
const loadYaml = () => (yaml ??= createRequire(import.meta.url)("yaml") as typeof Yaml);

export interface FrontMatter {
  /** Each top-level key and its value as text, in order. */
  rows: [string, string][];
  /** `title`, when it is text (or a number). */
  title?: string;
  /** The markdown after the front matter. */
  body: string;
}

/** Front matter longer than this is not looked at (it stays markdown). */
const MAX_FRONT_MATTER = 65_536;
const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
/** The closing line: `---` or `...` alone. */
const CLOSE = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m;

/** The front matter at the start of `markdown`, when it has one that is a YAML mapping. */
export function splitFrontMatter(markdown: string): FrontMatter | undefined {
  const open = OPEN.exec(markdown);
  if (!open) return undefined;
  const rest = markdown.slice(open[0].length, open[0].length + MAX_FRONT_MATTER + 8);
  const close = CLOSE.exec(rest);
  if (!close || close.index > MAX_FRONT_MATTER) return undefined;
  const source = rest.slice(0, close.index);
  const document = loadYaml().parseDocument(source, { prettyErrors: false });
  if (document.errors.length > 0) return undefined;
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 100 });
  } catch {
    return undefined;
  }
  if (!isMapping(value) || Object.keys(value).length === 0) return undefined;
  const rows = Object.entries(value).map(([key, item]): [string, string] => [key, valueText(item)]);
  const title = value["title"];
  return {
    rows,
    ...(typeof title === "string" || typeof title === "number" ? { title: String(title).trim() } : {}),
    body: markdown.slice(open[0].length + close.index + close[0].length),
  };
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** A value as one line: a scalar as written, a list of scalars comma-separated, anything deeper in YAML's flow style. */
function valueText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value) && value.every((item) => item === null || typeof item !== "object")) return value.map(valueText).join(", ");
  return flow(value);
}

/** A nested value as `{ key: value, list: [a, b] }`. */
function flow(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(flow).join(", ")}]`;
  if (isMapping(value))
    return `{ ${Object.entries(value)
      .map(([key, item]) => `${key}: ${flow(item)}`)
      .join(", ")} }`;
  return valueText(value);
}

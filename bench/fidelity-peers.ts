// The npm peers `npm run bench:fidelity:docs` scores next to ours and pandoc: markdown → .docx packages,
// installed at bench time into a temporary folder (never into package.json or the repo) and loaded
// from there by path. Each adapter is (markdown) => Promise<Uint8Array> through the package's
// documented API (its README), with its defaults except where `note` says. No adapter fetches
// images over the network (ours does not either): each peer renders an unloaded image its own way.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export type Convert = (markdown: string) => Promise<Uint8Array>;

export interface Peer {
  name: string;
  version: string;
  /** Why the peer cannot run (install or load failed); then `convert` is absent. */
  unavailable?: string;
  /** What the adapter does beyond the package's defaults. */
  note?: string;
  convert?: Convert;
}

/** What npm installs: remark-docx stays on 0.3.x (the version line the issue names). */
const INSTALL = ["remark-docx@0.3", "unified", "remark-parse", "remark-gfm", "@mohtasham/md-to-docx", "markdown-docx", "mdast2docx"];

type Module = Record<string, unknown>;
type Load = (specifier: string) => Promise<Module>;
interface Processor {
  use(plugin: unknown, options?: unknown): Processor;
  parse(markdown: string): unknown;
  process(markdown: string): Promise<{ result: unknown }>;
}
type Fn<T = unknown> = (...args: never[]) => T;

const bytes = async (out: unknown): Promise<Uint8Array> =>
  out instanceof Uint8Array ? out : out instanceof Blob ? new Uint8Array(await out.arrayBuffer()) : new Uint8Array(out as ArrayBuffer);

const ADAPTERS: { name: string; note?: string; setup: (load: Load) => Promise<Convert> }[] = [
  {
    // remark-docx 0.3 (README "Node.js", "HTML"): unified().use(remark-parse).use(docx, { plugins: [htmlPlugin()] }),
    // `await (await processor.process(md)).result` is an ArrayBuffer. With remark-gfm, so that the
    // tables, strikethrough and footnotes it supports are parsed. No imagePlugin (it fetches images).
    name: "remark-docx",
    note: "with remark-gfm and its htmlPlugin",
    setup: async (load) => {
      shimIteratorReduce();
      const { unified } = (await load("unified")) as { unified: () => Processor };
      const [parse, gfm, docx] = await Promise.all(
        ["remark-parse", "remark-gfm", "remark-docx"].map(async (s) => (await load(s))["default"]),
      );
      const { htmlPlugin } = (await load("remark-docx/plugins/html")) as { htmlPlugin: Fn };
      const processor = unified()
        .use(parse)
        .use(gfm)
        .use(docx, { plugins: [htmlPlugin()] });
      return async (markdown) => bytes(await (await processor.process(markdown)).result);
    },
  },
  {
    // @mohtasham/md-to-docx (README "Node.js"): convertMarkdownToBuffer(markdown) → Buffer. Its
    // defaults already leave remote images unfetched (shown as fallback text).
    name: "@mohtasham/md-to-docx",
    setup: async (load) => {
      const { convertMarkdownToBuffer } = (await load("@mohtasham/md-to-docx")) as {
        convertMarkdownToBuffer: (md: string) => Promise<Uint8Array>;
      };
      return (markdown) => convertMarkdownToBuffer(markdown);
    },
  },
  {
    // markdown-docx (README "Basic Usage", "Configuration Options"): Packer.toBuffer(await markdownDocx(markdown, options)).
    // `imageAdapter` resolving null instead of its default, which downloads every image: an image it
    // has no data for is written as its own fallback text, `[!alt](url)`.
    name: "markdown-docx",
    note: "imageAdapter → null (no image downloads)",
    setup: async (load) => {
      const { markdownDocx, Packer } = (await load("markdown-docx")) as {
        markdownDocx: (md: string, options: object) => Promise<unknown>;
        Packer: { toBuffer: (doc: unknown) => Promise<Uint8Array> };
      };
      const options = { imageAdapter: async () => null };
      return async (markdown) => Packer.toBuffer(await markdownDocx(markdown, options));
    },
  },
  {
    // mdast2docx (README "Using Plugins"): toDocx(unified().use(remark-parse).use(remark-gfm).parse(md), {}, { plugins })
    // with tablePlugin (GFM tables) and listPlugin (ordered lists); its default output in Node is a
    // Blob here (outputType "buffer" throws with docx 9.15). Not htmlPlugin (it needs a DOM
    // `document`, absent in Node: raw HTML is left out), imagePlugin (fetches) nor mermaid/math.
    // It styles the first `#` heading "Title", which pandoc reads as metadata, not text.
    name: "mdast2docx",
    note: "with remark-gfm, tablePlugin, listPlugin",
    setup: async (load) => {
      const { unified } = (await load("unified")) as { unified: () => Processor };
      const [parse, gfm] = await Promise.all(["remark-parse", "remark-gfm"].map(async (s) => (await load(s))["default"]));
      const { toDocx } = (await load("mdast2docx")) as { toDocx: (ast: unknown, docx: object, section: object) => Promise<unknown> };
      const { tablePlugin, listPlugin } = (await load("mdast2docx/plugins")) as { tablePlugin: Fn; listPlugin: Fn };
      const parser = unified().use(parse).use(gfm);
      return async (markdown) => bytes(await toDocx(parser.parse(markdown), {}, { plugins: [tablePlugin(), listPlugin()] }));
    },
  },
];

/**
 * remark-docx 0.3.x calls `map.entries().reduce(…)`, an iterator helper Node has from 22 on: on
 * Node 20 it throws "….reduce is not a function" on every document. Defines that one method, with
 * the standard's behaviour, when the runtime lacks it; the bench prints that it did.
 */
let shimmed = false;
function shimIteratorReduce(): void {
  const proto = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())) as { reduce?: unknown };
  if (typeof proto.reduce === "function") return;
  Object.defineProperty(proto, "reduce", {
    configurable: true,
    writable: true,
    value: function reduce(this: Iterator<unknown>, fn: (acc: unknown, value: unknown, index: number) => unknown, ...initial: unknown[]) {
      let started = initial.length > 0;
      let acc = initial[0];
      let index = 0;
      for (let step = this.next(); !step.done; step = this.next(), index++) {
        if (started) acc = fn(acc, step.value, index);
        else [acc, started] = [step.value, true];
      }
      if (!started) throw new TypeError("Reduce of empty iterator with no initial value");
      return acc;
    },
  });
  shimmed = true;
}

/**
 * Installs the peers into `dir` (npm, quietly, no scripts, nothing saved) and loads each adapter.
 * A failed install makes every peer unavailable with npm's message; a failed load, that peer.
 */
export async function installPeers(dir: string): Promise<Peer[]> {
  const installed = await new Promise<string | undefined>((resolve) =>
    execFile(
      "npm",
      [
        "install",
        "--no-save",
        "--no-package-lock",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        "--loglevel=error",
        "--prefix",
        dir,
        ...INSTALL,
      ],
      { cwd: dir, timeout: 600_000, maxBuffer: 16 * 1024 * 1024 },
      (error, _stdout, stderr) => resolve(error ? npmError(stderr) || firstLine(error.message) : undefined),
    ),
  );
  const require = createRequire(join(dir, "noop.js"));
  const load: Load = async (specifier) => (await import(pathToFileURL(require.resolve(specifier)).href)) as Module;
  const version = (name: string) => {
    try {
      return (JSON.parse(readFileSync(join(dir, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
    } catch {
      return "";
    }
  };
  return Promise.all(
    ADAPTERS.map(async ({ name, note, setup }): Promise<Peer> => {
      if (installed !== undefined) return { name, version: "", unavailable: `install failed: ${installed}` };
      try {
        const convert = await setup(load);
        const shim = name === "remark-docx" && shimmed ? "Iterator.prototype.reduce shimmed (0.3.x needs Node ≥ 22)" : undefined;
        return { name, version: version(name), note: [note, shim].filter(Boolean).join("; "), convert };
      } catch (error) {
        return { name, version: version(name), unavailable: `install failed: cannot load it: ${firstLine(String(error))}` };
      }
    }),
  );
}

/** npm's error code and its first message line ("ECONNREFUSED: FetchError: request to … failed, reason: …"). */
function npmError(stderr: string): string {
  const lines = stderr.split("\n").flatMap((l) => /^npm (?:error|ERR!) (.+)/.exec(l)?.[1] ?? []);
  const code = lines.find((l) => l.startsWith("code "))?.slice(5);
  const message = lines.find((l) => !/^(?:code|syscall|errno|path|dest)\s|^\s/.test(l));
  return firstLine([code, message].filter(Boolean).join(": "));
}

export function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim() !== "") ?? text;
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

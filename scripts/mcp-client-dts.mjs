// packages/mcp/dist/client.d.ts for `workspace-gateway-mcp/client` (scripts/build-mcp.mjs): the
// declarations of src/client/index.ts and of the AppRouter it names, made self-contained. The
// light package ships none of the server's sources or types, so every reference to a gateway
// module is either removed with the module inlined (the router), or replaced by a table below.
// Anything else fails the build: the result may refer to @trpc/client and @trpc/server only.
import { dirname, join, relative } from "node:path";
import ts from "typescript";

/** Where the gateway's types go, by "<module>#<name>" (module relative to the repository). */
const replacements = {
  // The server's request context: its type pulls in the whole server. Clients never see ctx.
  "src/trpc/init.ts#TrpcContext": { erase: "object" },
  // Plain shapes, copied as declared (their references must be globals: checked).
  "src/contract/files.ts#UploadedFile": { copy: true },
  "src/services/viewer.ts#ViewerInfo": { copy: true },
  // `keyof typeof errorCodes`: printed expanded, a union of string literals.
  "src/core/errors.ts#ErrorCode": { expand: true },
};
/** Modules whose declarations are inlined whole; their `export`s become local, re-exported by name. */
const inlined = ["src/trpc/router.ts"];
const allowedPackages = new Set(["@trpc/client", "@trpc/server"]);

/** The gateway's program from src/client/index.ts, and how to read one module's declarations from it. */
function openProgram(root) {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  const options = { ...config.options, noEmit: false, declaration: true, emitDeclarationOnly: true, outDir: "/dts", rootDir: root };
  const entry = join(root, "src/client/index.ts");
  const program = ts.createProgram({ rootNames: [entry], options });
  const checker = program.getTypeChecker();
  const sourceOf = (module) => {
    const file = program.getSourceFile(join(root, module));
    if (!file) throw new Error(`client declarations: ${module} is not in the program`);
    return file;
  };
  /** The emitted declarations of one module (relative path), parsed. */
  const declarationsOf = (module) => {
    let text;
    const result = program.emit(sourceOf(module), (_name, data) => (text = data), undefined, true);
    const errors = ts.getPreEmitDiagnostics(program, sourceOf(module)).concat(result.diagnostics);
    if (errors.length || text === undefined) {
      throw new Error(`client declarations: cannot emit ${module}: ${ts.formatDiagnostics(errors, ts.createCompilerHost(options))}`);
    }
    return ts.createSourceFile(`${module}.d.ts`, text, ts.ScriptTarget.Latest, true);
  };
  /** A specifier as written in `module`, resolved to a repository-relative module, or the package name. */
  const target = (module, specifier) =>
    specifier.startsWith(".") ? relative(root, join(root, dirname(module), specifier)).replaceAll("\\", "/") : specifier;
  return { root, program, checker, options, sourceOf, declarationsOf, target };
}

/** The text standing for `name` of `module`; declares it once in the preamble when needed. */
function replace(at, module, name) {
  const { sourceOf, checker } = at;
  const key = `${module}#${name}`;
  const rule = replacements[key];
  if (!rule) throw new Error(`client declarations: no rule for ${key}; add one to scripts/mcp-client-dts.mjs`);
  if (rule.erase) return rule.erase;
  if (at.used.has(key)) return name;
  at.used.add(key);
  const statement = sourceOf(module).statements.find(
    (node) => (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) && node.name.text === name,
  );
  if (!statement) throw new Error(`client declarations: ${key} is not an interface or type alias`);
  if (rule.copy) {
    checkLibOnly(at, statement, key);
    const text = statement.getText().replace(/^export\s+/, "");
    at.preamble.push(text);
  } else {
    const type = checker.getDeclaredTypeOfSymbol(checker.getSymbolAtLocation(statement.name));
    const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias;
    const text = `type ${name} = ${checker.typeToString(type, undefined, flags)};`;
    // Expanded means closed: no name left that would need a declaration of its own.
    ts.createSourceFile("x.ts", text, ts.ScriptTarget.Latest, true).statements[0].type.forEachChild(function visit(node) {
      if (ts.isTypeReferenceNode(node) || ts.isImportTypeNode(node) || ts.isTypeQueryNode(node)) {
        throw new Error(`client declarations: ${key} expands to ${text}, which still names ${node.getText()}`);
      }
      node.forEachChild(visit);
    });
    at.preamble.push(text);
  }
  return name;
}
/** Throws when a copied declaration names a type that is not a global of TypeScript's libs or Node's types. */
function checkLibOnly({ checker, program }, statement, key) {
  statement.forEachChild(function visit(node) {
    if (ts.isTypeReferenceNode(node)) {
      const symbol = checker.getSymbolAtLocation(node.typeName);
      // Globals of TypeScript's libs, or of Node's types (ReadableStream is declared by both).
      const global = symbol?.declarations?.every((decl) => {
        const file = decl.getSourceFile();
        return program.isSourceFileDefaultLibrary(file) || file.fileName.includes("/node_modules/@types/node/");
      });
      if (!global) throw new Error(`client declarations: ${key} names ${node.typeName.getText()}, not a global`);
    } else if (ts.isImportTypeNode(node) || ts.isTypeQueryNode(node)) {
      throw new Error(`client declarations: ${key} contains ${node.getText()}`);
    }
    node.forEachChild(visit);
  });
}

/** One module's declarations with every reference to a gateway module rewritten (or refused). */
function rewrite(at, module, { local }) {
  const file = at.declarationsOf(module);
  const edits = [];
  const reExports = [];
  for (const statement of file.statements) {
    const specifier =
      statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : undefined;
    if (specifier === undefined) continue;
    const from = at.target(module, specifier);
    if (allowedPackages.has(from)) {
      // Hoisted: the bundle's imports come first.
      at.imports.push(statement.getText());
      edits.push([statement.getFullStart(), statement.getEnd(), ""]);
      continue;
    }
    const names = statement.importClause?.namedBindings ?? statement.exportClause;
    if (!names || (!ts.isNamedImports(names) && !ts.isNamedExports(names)) || statement.importClause?.name) {
      throw new Error(`client declarations: ${module}: unsupported ${statement.getText()}`);
    }
    for (const element of names.elements) {
      const name = (element.propertyName ?? element.name).text;
      if (element.propertyName) throw new Error(`client declarations: ${module}: renamed ${name} is not supported`);
      if (!inlined.includes(from)) replace(at, from, name);
      if (ts.isExportDeclaration(statement)) reExports.push(name);
    }
    edits.push([statement.getFullStart(), statement.getEnd(), ""]);
  }
  file.forEachChild(function visit(node) {
    if (ts.isImportTypeNode(node)) {
      const specifier = node.argument.literal.text;
      const from = at.target(module, specifier);
      if (allowedPackages.has(from)) return node.forEachChild(visit);
      if (!node.qualifier || !ts.isIdentifier(node.qualifier) || node.typeArguments || node.isTypeOf) {
        throw new Error(`client declarations: ${module}: unsupported ${node.getText()}`);
      }
      edits.push([node.getStart(), node.getEnd(), replace(at, from, node.qualifier.text)]);
      return;
    }
    node.forEachChild(visit);
  });
  if (local) {
    // An inlined module's exports are the client's to re-export (a value such as appRouter is not in client.js).
    for (const statement of file.statements) {
      const exported = statement.modifiers?.find((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
      if (exported) edits.push([exported.getStart(), exported.getEnd() + 1, ""]);
    }
  }
  let text = file.text;
  for (const [start, end, by] of edits.sort((a, b) => b[0] - a[0])) text = text.slice(0, start) + by + text.slice(end);
  return { text: text.trim(), reExports };
}

/** @returns {string} the declaration file's text */
export function bundleClientDeclarations(root) {
  const at = { ...openProgram(root), imports: [], preamble: [], used: new Set() };
  const router = rewrite(at, "src/trpc/router.ts", { local: true });
  const client = rewrite(at, "src/client/index.ts", { local: false });
  const out = [
    "// workspace-gateway-mcp/client: generated by scripts/build-mcp.mjs from the gateway's src/client/index.ts.",
    ...at.imports,
    ...at.preamble,
    router.text,
    client.text,
    `export type { ${client.reExports.join(", ")} };`,
    "",
  ].join("\n");
  verify(out);
  return out;
}

/** The result names no module but @trpc/client and @trpc/server, and declares each name once. */
function verify(text) {
  const file = ts.createSourceFile("client.d.ts", text, ts.ScriptTarget.Latest, true);
  const seen = new Set();
  for (const statement of file.statements) {
    const name =
      statement.name?.text ?? (ts.isVariableStatement(statement) ? statement.declarationList.declarations[0].name.getText() : undefined);
    if (name && seen.has(name) && !ts.isFunctionDeclaration(statement)) throw new Error(`client declarations: ${name} declared twice`);
    if (name) seen.add(name);
  }
  file.forEachChild(function visit(node) {
    const specifier = ts.isImportTypeNode(node)
      ? node.argument.literal.text
      : (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier
        ? node.moduleSpecifier.text
        : undefined;
    if (specifier !== undefined && !allowedPackages.has(specifier)) {
      throw new Error(`client declarations: the result still refers to "${specifier}"`);
    }
    node.forEachChild(visit);
  });
}

/** Type-checks the written file as a consumer would (strict, NodeNext, skipLibCheck false). */
export function typeCheckDeclarations(path) {
  const options = {
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ["node"],
  };
  const program = ts.createProgram({ rootNames: [path], options });
  const errors = ts.getPreEmitDiagnostics(program);
  if (errors.length) {
    throw new Error(`client declarations do not type-check:\n${ts.formatDiagnostics(errors, ts.createCompilerHost(options))}`);
  }
}

/**
 * The API report: every name lib/index.ts exports, with its declaration as TypeScript's
 * declaration emit writes it (bodies, private members and comments left out), grouped by the
 * module that declares it. It is the public API as a reviewer reads it: a change to a
 * template-facing signature shows up as a diff of docs/api-report.md, which
 * `npm run api:update` regenerates and test/core/api-report.test.ts compares. It also names
 * the "forgotten" types: project types a public signature uses that the index does not export
 * (a template could not name them). Internal (tooling), as app/api-docs.ts.
 */
import * as path from "path";
import * as ts from "typescript";
import { API_ENTRY } from "./api-docs";

export const API_REPORT_FILE = "docs/api-report.md";
export const API_REPORT_COMMAND = "npm run api:update";

/** One exported name: the module that declares it and its kind. */
interface ExportedName {
  readonly name: string;
  /** The declaring file, by path from the root (posix), or the package for a re-export. */
  readonly module: string;
  readonly symbol: ts.Symbol;
}

/** What the report is made from: the program and the index's names. */
interface PublicApi {
  readonly program: ts.Program;
  readonly checker: ts.TypeChecker;
  readonly names: readonly ExportedName[];
}

function loadPublicApi(root: string): PublicApi {
  const configFile = path.join(root, "tsconfig.json");
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (!parsed) throw new Error(`cannot read ${configFile}`);
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    sourceMap: false,
    removeComments: true,
  };
  const program = ts.createProgram([path.join(root, API_ENTRY)], options);
  const checker = program.getTypeChecker();
  const entry = program.getSourceFile(path.join(root, API_ENTRY));
  const moduleSymbol = entry && checker.getSymbolAtLocation(entry);
  if (!moduleSymbol) throw new Error(`${API_ENTRY}: not a module`);
  const names = checker.getExportsOfModule(moduleSymbol).map((exported) => {
    const symbol =
      exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const file = symbol.declarations?.[0]?.getSourceFile().fileName ?? "";
    const rel = path.relative(root, file).split(path.sep).join("/");
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(rel)?.[1];
    return { name: exported.name, module: pkg ?? rel, symbol };
  });
  return { program, checker, names };
}

/** The top-level statements of declaration text that declare `name`. */
function declarationsOf(file: ts.SourceFile, name: string): ts.Statement[] {
  return file.statements.filter((statement) => {
    if (ts.isVariableStatement(statement)) {
      return statement.declarationList.declarations.some(
        (d) => ts.isIdentifier(d.name) && d.name.text === name,
      );
    }
    const named = statement as ts.Statement & { name?: ts.Node };
    return named.name !== undefined && ts.isIdentifier(named.name) && named.name.text === name;
  });
}

/** A class's declaration without its private members (declaration emit keeps their names). */
function withoutPrivateMembers(statement: ts.Statement): ts.Statement {
  if (!ts.isClassDeclaration(statement)) return statement;
  const isPrivate = (member: ts.ClassElement) =>
    (ts.canHaveModifiers(member) &&
      ts.getModifiers(member)?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword)) ||
    (member.name !== undefined && ts.isPrivateIdentifier(member.name));
  return ts.factory.updateClassDeclaration(
    statement,
    statement.modifiers,
    statement.name,
    statement.typeParameters,
    statement.heritageClauses,
    statement.members.filter((m) => !isPrivate(m)),
  );
}

/** The declaration text of each exported name of `module` (a project file). */
function moduleDeclarations(api: PublicApi, root: string, module: string, names: string[]) {
  const source = api.program.getSourceFile(path.join(root, module));
  if (!source) throw new Error(`${module}: not in the program`);
  let emitted = "";
  api.program.emit(
    source,
    (fileName, text) => {
      if (fileName.endsWith(".d.ts")) emitted = text;
    },
    undefined,
    true,
  );
  const dts = ts.createSourceFile("api.d.ts", emitted, ts.ScriptTarget.ES2022, true);
  const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });
  return names.map((name) => {
    const statements = declarationsOf(dts, name);
    if (statements.length === 0) return `// ${name}: re-exported (declared elsewhere)`;
    return statements
      .map((s) => printer.printNode(ts.EmitHint.Unspecified, withoutPrivateMembers(s), dts))
      .join("\n");
  });
}

/**
 * Project types that an exported declaration's signature names and the index does not export:
 * `Module.Type (used by Name)`.
 */
function forgottenTypes(api: PublicApi, root: string): string[] {
  const exported = new Set(api.names.map((n) => n.symbol));
  const forgotten = new Map<string, Set<string>>();
  for (const { name, symbol } of api.names) {
    for (const declaration of symbol.declarations ?? []) {
      const visit = (node: ts.Node): void => {
        // Bodies, initializers and private members are not the signature.
        if (ts.isBlock(node)) return;
        if (ts.canHaveModifiers(node)) {
          const modifiers = ts.getModifiers(node) ?? [];
          if (modifiers.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword)) return;
        }
        if (ts.isPropertyDeclaration(node) && node.name && ts.isPrivateIdentifier(node.name)) {
          return;
        }
        if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node)) {
          const at = ts.isTypeReferenceNode(node) ? node.typeName : node.expression;
          let target = api.checker.getSymbolAtLocation(at);
          if (target && target.flags & ts.SymbolFlags.Alias) {
            target = api.checker.getAliasedSymbol(target);
          }
          const file = target?.declarations?.[0]?.getSourceFile().fileName ?? "";
          const rel = path.relative(root, file).split(path.sep).join("/");
          const isTypeParameter = target && target.flags & ts.SymbolFlags.TypeParameter;
          if (target && !isTypeParameter && rel.startsWith("lib/") && !exported.has(target)) {
            const key = `${rel}: ${target.name}`;
            forgotten.set(key, (forgotten.get(key) ?? new Set()).add(name));
          }
        }
        if (ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node)) {
          if (node.type) visit(node.type);
          return;
        }
        ts.forEachChild(node, visit);
      };
      visit(declaration);
    }
  }
  return [...forgotten]
    .map(([type, users]) => `${type} (used by ${[...users].sort().join(", ")})`)
    .sort();
}

/** The report's text: a page of Markdown, a TypeScript block per module in the index's order. */
export function renderApiReport(root: string): string {
  const api = loadPublicApi(root);
  const byModule = new Map<string, string[]>();
  for (const { name, module } of api.names) {
    byModule.set(module, [...(byModule.get(module) ?? []), name]);
  }
  const sections: string[] = [];
  for (const [module, names] of byModule) {
    const body = module.startsWith("lib/")
      ? moduleDeclarations(api, root, module, names).join("\n\n")
      : `export { ${names.join(", ")} } from "${module}";`;
    sections.push(`## ${module}\n\n\`\`\`ts\n${body}\n\`\`\`\n`);
  }
  const forgotten = forgottenTypes(api, root);
  const exportedCount = api.names.length;
  return [
    `<!-- Generated by \`${API_REPORT_COMMAND}\` (app/api-report.ts) from ${API_ENTRY}; do not edit. -->`,
    "",
    "# API report",
    "",
    `The ${exportedCount} names ${API_ENTRY} exports, by the module that declares them, as`,
    "TypeScript's declaration emit writes them. A change here is a change of the contract with",
    "templates: review it. `test/core/api-report.test.ts` fails when this page is not current.",
    "",
    "Types a public signature uses but the index does not export:",
    forgotten.length === 0 ? "none." : forgotten.map((f) => `- ${f}`).join("\n"),
    "",
    ...sections,
  ].join("\n");
}

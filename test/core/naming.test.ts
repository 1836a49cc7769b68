/**
 * The naming rule of docs/architecture.md ("Names"), read from the sources with the
 * TypeScript compiler's parser:
 * - in lib/devcontainer/ the folder is the prefix: the one class of `X.ts` is
 *   `Devcontainer` + PascalCase(X), and its props interface is that name + `Props`;
 * - no exported interface in lib/ has a snake_case field: TypeScript props are camelCase
 *   and the construct writes Terraform's snake_case name (e.g. `maskInput` → `mask_input`).
 * Each rule is also run on a fixture that breaks it, so the test can fail.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { projectRoot } from "../../lib/core/project-root";

const ROOT = projectRoot();

/**
 * Interfaces that mirror a JSON document another program writes, key for key, and so keep
 * its snake_case keys: renaming them would only add a mapping step that can drift.
 */
const SCHEMA_SHAPED: Readonly<Record<string, string>> = {
  // `terraform providers schema -json`'s block (`block_types`), read from schemas/.
  "lib/private/block-schemas.ts BlockSchema": "Terraform's provider schema JSON",
  // A whole `terraform providers schema -json` document, derived for a provider release.
  "lib/constructs/provider-releases.ts ProviderSchemaDocument": "Terraform's provider schema JSON",
};

function pascalCase(fileStem: string): string {
  return fileStem
    .split("-")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

function parse(path: string, text: string): ts.SourceFile {
  return ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
}

function isExported(node: ts.Node): boolean {
  return (
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
  );
}

/** Problems with the classes of lib/devcontainer/<stem>.ts. */
function devcontainerClassProblems(stem: string, source: ts.SourceFile): string[] {
  const expected = `Devcontainer${pascalCase(stem)}`;
  const classes = source.statements.filter(ts.isClassDeclaration);
  const problems: string[] = [];
  if (classes.length > 1) {
    problems.push(
      `${stem}.ts holds ${classes.length} classes (${classes.map((c) => c.name?.text).join(", ")}); ` +
        `one class per file`,
    );
  }
  for (const cls of classes) {
    const name = cls.name?.text ?? "(anonymous)";
    if (name !== expected) problems.push(`${stem}.ts: class ${name} should be ${expected}`);
    const ctor = cls.members.find(ts.isConstructorDeclaration);
    const propsType = ctor?.parameters.find((p) => p.name.getText(source) === "props")?.type;
    if (propsType !== undefined && propsType.getText(source) !== `${name}Props`) {
      problems.push(
        `${stem}.ts: ${name}'s props are ${propsType.getText(source)}, should be ${name}Props`,
      );
    }
  }
  return problems;
}

/** `interface.field` for every snake_case field of an exported interface (nested literals too). */
function snakeCaseFields(path: string, source: ts.SourceFile): string[] {
  const found: string[] = [];
  const fields = (owner: string, members: ts.NodeArray<ts.TypeElement>): void => {
    for (const member of members) {
      if (!ts.isPropertySignature(member)) continue;
      const name = member.name.getText(source).replace(/^["']|["']$/g, "");
      if (name.includes("_")) found.push(`${owner}.${name}`);
      if (member.type !== undefined && ts.isTypeLiteralNode(member.type)) {
        fields(`${owner}.${name}`, member.type.members);
      }
    }
  };
  for (const statement of source.statements) {
    if (!isExported(statement)) continue;
    let name: string | undefined;
    if (ts.isInterfaceDeclaration(statement)) {
      name = statement.name.text;
      if (SCHEMA_SHAPED[`${path} ${name}`] !== undefined) continue;
      fields(name, statement.members);
    } else if (ts.isTypeAliasDeclaration(statement) && ts.isTypeLiteralNode(statement.type)) {
      name = statement.name.text;
      if (SCHEMA_SHAPED[`${path} ${name}`] !== undefined) continue;
      fields(name, statement.type.members);
    }
  }
  return found.map((field) => `${path}: ${field}`);
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("lib/devcontainer: the folder is the prefix", () => {
  it("names the one class of each X.ts Devcontainer + PascalCase(X), its props + Props", () => {
    const dir = join(ROOT, "lib/devcontainer");
    const files = readdirSync(dir).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(20);
    const problems = files.flatMap((file) =>
      devcontainerClassProblems(
        file.replace(/\.ts$/, ""),
        parse(file, readFileSync(join(dir, file), "utf8")),
      ),
    );
    expect(problems).toEqual([]);
  });

  it.each([
    [
      "wait-for",
      "export class LifecycleWaitFor {}",
      ["wait-for.ts: class LifecycleWaitFor should be DevcontainerWaitFor"],
    ],
    [
      "pod",
      "export class DevcontainerPod {}\nexport class PodExtras {}",
      [
        "pod.ts holds 2 classes (DevcontainerPod, PodExtras); one class per file",
        "pod.ts: class PodExtras should be DevcontainerPod",
      ],
    ],
    [
      "local-env",
      "export class DevcontainerLocalEnv { constructor(s: unknown, id: string, props: LocalEnvDefaultsProps) {} }",
      [
        "local-env.ts: DevcontainerLocalEnv's props are LocalEnvDefaultsProps, should be DevcontainerLocalEnvProps",
      ],
    ],
  ])("fails a file %s.ts that breaks it", (stem, text, expected) => {
    expect(devcontainerClassProblems(stem, parse(`${stem}.ts`, text))).toEqual(expected);
  });
});

describe("TypeScript props are camelCase", () => {
  it("no exported interface in lib/ has a snake_case field, but the schema-shaped ones", () => {
    const problems = tsFiles(join(ROOT, "lib")).flatMap((file) => {
      const path = relative(ROOT, file).split("\\").join("/");
      return snakeCaseFields(path, parse(path, readFileSync(file, "utf8")));
    });
    expect(problems).toEqual([]);
  });

  it("each exempt interface still exists and still has snake_case fields", () => {
    for (const key of Object.keys(SCHEMA_SHAPED)) {
      const [path, name] = key.split(" ");
      const text = readFileSync(join(ROOT, path), "utf8");
      const renamed = text.replace(new RegExp(`\\b${name}\\b`, "g"), `${name}NotExempt`);
      expect(snakeCaseFields(path, parse(path, renamed)).length).toBeGreaterThan(0);
    }
  });

  it("fails an exported interface or object type with a snake_case field, nested too", () => {
    const text = [
      "export interface ParameterStyling { readonly mask_input?: boolean; readonly label?: string }",
      "export type Options = { readonly nested: { readonly read_only: boolean } };",
      "interface Internal { readonly not_exported: string }",
    ].join("\n");
    expect(snakeCaseFields("lib/x.ts", parse("lib/x.ts", text))).toEqual([
      "lib/x.ts: ParameterStyling.mask_input",
      "lib/x.ts: Options.nested.read_only",
    ]);
  });
});

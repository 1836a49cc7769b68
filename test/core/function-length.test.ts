/**
 * No product function is longer than {@link MAX_LINES} lines without a one-line reason: a long
 * function (a declaration, method, accessor or constructor, or an arrow function or function
 * expression bound to a name), counted from its first line to its last, needs
 * `// long: <reason>` on the line right above it, or above its JSDoc when it has one
 * (docs/testing.md). Everything else becomes named steps.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { projectRoot } from "../../lib/core/project-root";

const ROOT = projectRoot();
const MAX_LINES = 80;
/** The folders of product code, from the project root. */
const PRODUCT_DIRS = ["lib", "app", "scripts", "templates", "packages/terraform-harness/src"];
const SOURCE_FILE = /\.(ts|js|mjs|cjs)$/;
/** The one form of a reason: the line right above the function or its JSDoc. */
const REASON = /^\s*\/\/ long: \S/;

/**
 * The devcontainer mapping's long functions that carry no reason yet: lib/devcontainer was
 * being renamed when this check came. A follow-up splits them (or gives the reason) and empties
 * the list; an entry that is no longer long without a reason fails, so the list cannot rot.
 */
const DEVCONTAINER_FOLLOW_UP: readonly string[] = [
  "lib/devcontainer/kubernetes-customizations.ts: DevcontainerKubernetesCustomizations.constructor",
  "lib/devcontainer/mounts.ts: DevcontainerMounts.constructor",
  "lib/devcontainer/placement.ts: DevcontainerPlacement.constructor",
  "lib/devcontainer/pod.ts: DevcontainerPod.constructor",
  "lib/devcontainer/runtime.ts: DevcontainerRuntime.constructor",
  "lib/devcontainer/sizing.ts: DevcontainerSizing.constructor",
  "lib/devcontainer/source.ts: DevcontainerSource.constructor",
  "lib/devcontainer/template-variables.ts: DevcontainerTemplateVariables.constructor",
  "lib/devcontainer/warnings.ts: DevcontainerWarnings.constructor",
  "lib/devcontainer/workspace-folder.ts: DevcontainerWorkspaceFolder.constructor",
  "lib/devcontainer/workspace-user.ts: DevcontainerWorkspaceUser.constructor",
];

/** A function longer than {@link MAX_LINES} lines. */
interface LongFunction {
  /** `file: Name`, the file from the project root (`Class.member` for a class's members). */
  readonly key: string;
  /** 1-based line of the function's first token. */
  readonly line: number;
  readonly lines: number;
  /** Whether the line above it (or above its JSDoc) is a `// long: <reason>` comment. */
  readonly reasoned: boolean;
}

/** The name a function is known by, and the node its JSDoc and reason stand above. */
function namedFunction(
  node: ts.Node,
  file: ts.SourceFile,
): { readonly name: string; readonly anchor: ts.Node } | undefined {
  const className = (member: ts.Node) =>
    ts.isClassLike(member.parent) && member.parent.name ? `${member.parent.name.text}.` : "";
  if (ts.isConstructorDeclaration(node) && node.body) {
    return { name: `${className(node)}constructor`, anchor: node };
  }
  if (
    (ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)) &&
    node.body
  ) {
    return { name: `${className(node)}${node.name?.getText(file) ?? "default"}`, anchor: node };
  }
  if (!ts.isArrowFunction(node) && !ts.isFunctionExpression(node)) return undefined;
  const bound = node.parent;
  if (ts.isVariableDeclaration(bound) && bound.initializer === node) {
    const statement = bound.parent.parent;
    const anchor =
      ts.isVariableStatement(statement) && statement.declarationList.declarations.length === 1
        ? statement
        : bound;
    return { name: bound.name.getText(file), anchor };
  }
  if (
    (ts.isPropertyAssignment(bound) || ts.isPropertyDeclaration(bound)) &&
    bound.initializer === node
  ) {
    return { name: `${className(bound)}${bound.name.getText(file)}`, anchor: bound };
  }
  return undefined;
}

/** Whether the line above `anchor`, or above the JSDoc right on top of it, gives a reason. */
function hasReason(anchor: ts.Node, file: ts.SourceFile, lines: readonly string[]): boolean {
  const lineOf = (pos: number) => file.getLineAndCharacterOfPosition(pos).line;
  let top = lineOf(anchor.getStart(file));
  const comments = ts.getLeadingCommentRanges(file.text, anchor.getFullStart()) ?? [];
  const last = comments[comments.length - 1];
  if (last && file.text.startsWith("/**", last.pos) && lineOf(last.end) === top - 1) {
    top = lineOf(last.pos);
  }
  return top > 0 && REASON.test(lines[top - 1]);
}

/** The functions of one source text that are longer than {@link MAX_LINES} lines. */
function longFunctions(relPath: string, text: string): LongFunction[] {
  const file = ts.createSourceFile(relPath, text, ts.ScriptTarget.Latest, true);
  const lines = text.split("\n");
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    const named = namedFunction(node, file);
    if (named) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > MAX_LINES) {
        found.push({
          key: `${relPath}: ${named.name}`,
          line: first + 1,
          lines: last - first + 1,
          reasoned: hasReason(named.anchor, file, lines),
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The product source files, from the project root. */
function productFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory() && entry.name !== "node_modules") walk(rel);
      else if (entry.isFile() && SOURCE_FILE.test(entry.name) && !rel.endsWith(".d.ts")) {
        files.push(rel);
      }
    }
  };
  for (const dir of PRODUCT_DIRS) walk(dir);
  return files.sort();
}

/** `lines` lines: a function whose body fills them, under `above` (the lines on top of it). */
function fixture(lines: number, above: readonly string[] = []): string {
  const body = Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`);
  return [...above, "export function step(): void {", ...body, "}", ""].join("\n");
}

describe("the check", () => {
  test(`counts a function's lines from its first to its last; over ${MAX_LINES} is long`, () => {
    expect(longFunctions("f.ts", fixture(MAX_LINES))).toEqual([]);
    expect(longFunctions("f.ts", fixture(MAX_LINES + 1))).toEqual([
      { key: "f.ts: step", line: 1, lines: MAX_LINES + 1, reasoned: false },
    ]);
  });

  test("takes a `// long: <reason>` right above the function or its JSDoc, nothing else", () => {
    const reasoned = (above: readonly string[]) =>
      longFunctions("f.ts", fixture(MAX_LINES + 1, above))[0].reasoned;
    expect(reasoned(["// long: one case per kind"])).toBe(true);
    expect(reasoned(["// long: one case per kind", "/**", " * Steps.", " */"])).toBe(true);
    expect(reasoned(["// long: one case per kind", "/** Steps. */"])).toBe(true);
    expect(reasoned(["/** Steps. */"])).toBe(false);
    expect(reasoned(["// long:"])).toBe(false);
    expect(reasoned(["// long because of the cases"])).toBe(false);
    expect(reasoned(["// long: one case per kind", ""])).toBe(false);
    expect(reasoned(["// long: one case per kind", "// and a second comment"])).toBe(false);
  });

  test("names constructors, methods and functions bound to names by their class or binding", () => {
    const body = Array.from({ length: MAX_LINES }, (_, i) => `    v${i};`).join("\n");
    const text = [
      "class Stack {",
      `  constructor() {\n${body}\n  }`,
      `  private step(): void {\n${body}\n  }`,
      `  handler = () => {\n${body}\n  };`,
      "}",
      `// long: a table of handlers\nexport const run = function () {\n${body}\n};`,
      `const table = { read: (x: number) => {\n${body}\n  } };`,
      // A callback has no name of its own: the function it is passed to is what gets long.
      `[1].map(() => {\n${body}\n});`,
    ].join("\n");
    expect(longFunctions("f.ts", text).map((f) => [f.key, f.reasoned])).toEqual([
      ["f.ts: Stack.constructor", false],
      ["f.ts: Stack.step", false],
      ["f.ts: Stack.handler", false],
      ["f.ts: run", true],
      ["f.ts: read", false],
    ]);
  });
});

describe("product code", () => {
  const files = productFiles();
  const long = files.flatMap((file) =>
    longFunctions(file, fs.readFileSync(path.join(ROOT, file), "utf8")),
  );
  const unreasoned = long.filter((f) => !f.reasoned);

  test("is found in every product folder", () => {
    for (const dir of PRODUCT_DIRS) {
      expect(files.filter((f) => f.startsWith(`${dir}/`)).length).toBeGreaterThan(0);
    }
  });

  test(`has no function over ${MAX_LINES} lines without a \`// long: <reason>\``, () => {
    const offenders = unreasoned
      .filter((f) => !DEVCONTAINER_FOLLOW_UP.includes(f.key))
      .map(
        (f) =>
          `${f.key} (line ${f.line}) is ${f.lines} lines: split it into named steps, or put ` +
          "`// long: <reason>` on the line above it (or above its JSDoc)",
      );
    expect(offenders).toEqual([]);
  });

  test("the devcontainer follow-up list names only lib/devcontainer functions still long without a reason", () => {
    const stale = DEVCONTAINER_FOLLOW_UP.filter(
      (key) => !unreasoned.some((f) => f.key === key),
    ).map((key) => `${key} is no longer long without a reason: remove it from the list`);
    expect(stale).toEqual([]);
    expect(DEVCONTAINER_FOLLOW_UP.filter((key) => !key.startsWith("lib/devcontainer/"))).toEqual(
      [],
    );
  });
});

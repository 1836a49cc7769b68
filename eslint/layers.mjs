// The layers of docs/architecture.md as a lint rule (`npm run lint`). An import may point
// only down the table, or within its own layer; product code never imports test/; the plan
// harness (packages/terraform-harness) is a package of its own: it imports nothing of the
// project, and the project uses it by its package name, from app/ and scripts/ only. Templates
// compose the library's constructs: no raw provider bindings (.gen/, @cdktf/provider-*).
// Every error names both files and both layers. test/ may import anything.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const HARNESS_DIR = "packages/terraform-harness/";
const HARNESS_NAME = "@coder-cdktf/terraform-harness";

/** Layers, lowest first: [name, test of a path relative to the project root]. */
export const LAYERS = [
  ["core", (p) => p.startsWith("lib/core/")],
  ["private", (p) => p.startsWith("lib/private/")],
  ["policy", (p) => p.startsWith("lib/policy/")],
  ["constructs", (p) => p.startsWith("lib/constructs/")],
  ["devcontainer", (p) => p.startsWith("lib/devcontainer/")],
  ["public API", (p) => p === "lib/index.ts"],
  ["templates", (p) => p.startsWith("templates/")],
  ["app", (p) => p.startsWith("app/")],
  ["cli", (p) => p.startsWith("scripts/") || p === "main.ts"],
];
const ORDER = LAYERS.map(([name]) => name);
/** Layers that may use the plan harness (by its package name): the tools, not the library. */
const HARNESS_USERS = new Set(["app", "cli"]);

/** The layer of a project path: a name of LAYERS, "harness", "test", or undefined. */
export function layerOf(rel) {
  if (rel.startsWith(HARNESS_DIR)) return "harness";
  if (rel.startsWith("test/")) return "test";
  const found = LAYERS.find(([, test]) => test(rel));
  return found ? found[0] : undefined;
}

function toRel(abs) {
  return path.relative(ROOT, abs).split(path.sep).join("/");
}

/** The project file a relative specifier names (as TypeScript and Node resolve it). */
function resolveRelative(fromAbs, specifier) {
  const target = path.resolve(path.dirname(fromAbs), specifier);
  for (const candidate of [
    `${target}.ts`,
    `${target}.d.ts`,
    `${target}.js`,
    target,
    path.join(target, "index.ts"),
    path.join(target, "index.js"),
  ]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return toRel(candidate);
  }
  return toRel(target);
}

/** Why `from` may not import `specifier`, or undefined when it may. */
export function violation(from, fromAbs, specifier) {
  const fromLayer = layerOf(from);
  if (fromLayer === undefined || fromLayer === "test") return undefined;
  if (specifier === HARNESS_NAME || specifier.startsWith(`${HARNESS_NAME}/`)) {
    if (fromLayer === "harness" || HARNESS_USERS.has(fromLayer)) return undefined;
    return `${from} (${fromLayer}) imports ${specifier} (harness): only app/ and scripts/ may use the plan harness`;
  }
  if (fromLayer === "templates" && specifier.startsWith("@cdktf/provider-")) {
    return `${from} (templates) imports ${specifier}: templates compose the library's constructs (lib/index.ts), not raw provider bindings`;
  }
  if (!specifier.startsWith(".")) return undefined;
  const to = resolveRelative(fromAbs, specifier);
  if (fromLayer === "templates" && to.startsWith(".gen/")) {
    return `${from} (templates) imports ${to}: templates compose the library's constructs (lib/index.ts), not raw provider bindings`;
  }
  const toLayer = layerOf(to);
  if (fromLayer === "harness") {
    if (toLayer === "harness") return undefined;
    return `${from} (harness) imports ${to}: the plan harness is a package of its own and imports nothing of the project`;
  }
  if (toLayer === "harness") {
    return `${from} (${fromLayer}) imports ${to} (harness): import the package ${HARNESS_NAME}, not its files`;
  }
  if (toLayer === "test") {
    return `${from} (${fromLayer}) imports ${to} (test): product code never imports test/`;
  }
  if (toLayer === undefined || toLayer === fromLayer) return undefined;
  if (fromLayer === "templates" && toLayer === "private") {
    return `${from} (templates) imports ${to} (private): lib/private/ is internal to the library`;
  }
  if (ORDER.indexOf(toLayer) > ORDER.indexOf(fromLayer)) {
    return `${from} (${fromLayer}) imports ${to} (${toLayer}): imports only point down the layer table of docs/architecture.md`;
  }
  return undefined;
}

const rule = {
  meta: {
    type: "problem",
    docs: { description: "imports point down the layer table of docs/architecture.md" },
    schema: [],
    messages: { layer: "{{why}}" },
  },
  create(context) {
    const fromAbs = context.filename;
    const from = toRel(fromAbs);
    const check = (node, specifier) => {
      if (typeof specifier !== "string") return;
      const why = violation(from, fromAbs, specifier);
      if (why !== undefined) context.report({ node, messageId: "layer", data: { why } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => check(node, node.source.value),
      CallExpression: (node) => {
        const callee = node.callee;
        const isRequire = callee.type === "Identifier" && callee.name === "require";
        const isResolve =
          callee.type === "MemberExpression" &&
          callee.object.type === "Identifier" &&
          callee.object.name === "require" &&
          callee.property.type === "Identifier" &&
          callee.property.name === "resolve";
        if (isRequire || isResolve) check(node, node.arguments[0]?.value);
      },
    };
  },
};

export default { rules: { layering: rule } };

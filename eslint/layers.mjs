// The layer table of docs/architecture.md as a lint rule: an import may only point down the
// table (or within its own layer). The violations that existed when the rule was introduced
// are listed in layers-baseline.json and allowed until the files move (issue 16, item 2);
// any other is an error naming both layers. Product code never imports test/.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Layers, lowest first: [name, test of a path relative to the root]. */
export const LAYERS = [
  ["bindings", (p) => p.startsWith(".gen/") || p.startsWith("node_modules/@cdktf/provider-")],
  [
    "L2",
    (p) =>
      /^lib\/(workspace-(?!tags)[^/]+|data-volume|agent-metadata|providers|ide-modules|browser-ides|size-presets|ai-task|resources-monitoring|resource-metadata)\.ts$/.test(
        p,
      ),
  ],
  ["mapping", (p) => p.startsWith("lib/devcontainer/")],
  ["policy", (p) => p.startsWith("lib/policy/")],
  ["public API", (p) => p === "lib/index.ts"],
  ["templates", (p) => p.startsWith("templates/")],
  [
    "deployment",
    (p) =>
      /^lib\/(operator-config|operator-presets|variable-defaults|provisioner-tags|workspace-tags|template-push|coder-cli|coder-version)\.ts$/.test(
        p,
      ),
  ],
  ["tools", (p) => p.startsWith("lib/preview/") || p.startsWith("scripts/") || p === "main.ts"],
  ["test", (p) => p.startsWith("test/")],
];

/** The layer of a project path; other lib/ modules are the base (cdktf, stack, helpers). */
export function layerOf(rel) {
  const found = LAYERS.find(([, test]) => test(rel));
  if (found) return found[0];
  return rel.startsWith("lib/") ? "base" : undefined;
}

const ORDER = ["bindings", "base", ...LAYERS.slice(1).map(([name]) => name)];

function resolveImport(fromAbs, specifier) {
  if (!specifier.startsWith(".")) {
    return specifier.startsWith("@cdktf/provider-") ? `node_modules/${specifier}` : undefined;
  }
  const target = path.resolve(path.dirname(fromAbs), specifier);
  for (const candidate of [`${target}.ts`, path.join(target, "index.ts"), `${target}.js`, target]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) {
      return path.relative(ROOT, candidate).split(path.sep).join("/");
    }
  }
  return path.relative(ROOT, target).split(path.sep).join("/");
}

const baseline = new Set(
  JSON.parse(fs.readFileSync(path.join(ROOT, "eslint", "layers-baseline.json"), "utf8")).allowed,
);

const rule = {
  meta: {
    type: "problem",
    docs: { description: "imports point down the layer table of docs/architecture.md" },
    schema: [],
    messages: {
      up: "{{from}} ({{fromLayer}}) imports {{to}} ({{toLayer}}): imports only point down the layer table of docs/architecture.md",
    },
  },
  create(context) {
    const fromAbs = context.filename;
    const from = path.relative(ROOT, fromAbs).split(path.sep).join("/");
    const fromLayer = layerOf(from);
    if (fromLayer === undefined || fromLayer === "test") return {};
    const check = (node, specifier) => {
      if (typeof specifier !== "string") return;
      const to = resolveImport(fromAbs, specifier);
      if (to === undefined) return;
      const toLayer = layerOf(to);
      if (toLayer === undefined || toLayer === fromLayer) return;
      if (ORDER.indexOf(toLayer) <= ORDER.indexOf(fromLayer)) return;
      if (baseline.has(`${from} -> ${to}`)) return;
      context.report({ node, messageId: "up", data: { from, fromLayer, to, toLayer } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => check(node, node.source.value),
      CallExpression: (node) => {
        if (node.callee.type === "Identifier" && node.callee.name === "require") {
          check(node, node.arguments[0]?.value);
        }
      },
    };
  },
};

export default { rules: { layering: rule } };

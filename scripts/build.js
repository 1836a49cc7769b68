#!/usr/bin/env node
// Transpiles the project's TypeScript to build/ with swc: no type-checking
// (that is `npm run typecheck`), so `npm run synth` stays fast. Only files whose
// source changed since the last build are transpiled again.
"use strict";
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..");
const outDir = path.join(root, "build");
const SOURCES = ["main.ts", "lib", "templates", "scripts", ".gen"];

function collect(rel, acc) {
  const abs = path.join(root, rel);
  if (!fs.existsSync(abs)) return acc;
  const st = fs.statSync(abs);
  if (st.isDirectory()) {
    for (const e of fs.readdirSync(abs)) collect(path.join(rel, e), acc);
  } else if (rel.endsWith(".ts") && !rel.endsWith(".d.ts")) {
    acc.push({ rel, mtimeMs: st.mtimeMs });
  }
  return acc;
}

const options = {
  jsc: { parser: { syntax: "typescript" }, target: "es2022" },
  module: { type: "commonjs" },
  sourceMaps: false,
};

function build() {
  if (!fs.existsSync(path.join(root, ".gen", "providers"))) {
    throw new Error(".gen/providers is missing: run `npm run gen:providers` (npm ci runs it)");
  }
  let count = 0;
  for (const { rel, mtimeMs } of SOURCES.flatMap((s) => collect(s, []))) {
    const out = path.join(outDir, rel.replace(/\.ts$/, ".js"));
    if (fs.existsSync(out) && fs.statSync(out).mtimeMs >= mtimeMs) continue;
    // Loaded only when something changed: most synth runs transpile nothing.
    const { code } = require("@swc/core").transformFileSync(path.join(root, rel), options);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, code);
    count++;
  }
  return count;
}

module.exports = { build };

if (require.main === module) {
  try {
    const n = build();
    if (process.argv.includes("--verbose")) process.stdout.write(`transpiled ${n} file(s)\n`);
  } catch (e) {
    process.stderr.write(`build failed: ${e.message}\n`);
    process.exit(1);
  }
}

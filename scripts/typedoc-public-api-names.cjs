// What lib/index.ts exports, by module: `export { a, type B } from "./dir/module";` blocks
// (the index names every export; test/core/public-api.test.ts holds it to that). Read by
// TypeDoc's configuration and its plugin (typedoc.config.cjs, typedoc-public-api.mjs).
"use strict";
const fs = require("fs");
const path = require("path");

const INDEX = path.join(__dirname, "..", "lib", "index.ts");
/** cdktf's names, re-exported from the one module that imports cdktf: documented by cdktf. */
const EXTERNAL = new Set(["core/cdk"]);

/** Module (path under lib/, no extension) → the names the index exports of it. */
function publicNames() {
  const text = fs.readFileSync(INDEX, "utf8");
  const byModule = new Map();
  for (const m of text.matchAll(/^export \{([^}]*)\} from "\.\/([^"]+)";$/gm)) {
    if (EXTERNAL.has(m[2])) continue;
    const names = m[1]
      .split(",")
      .map((n) => n.trim().replace(/^type\s+/, ""))
      .filter(Boolean);
    byModule.set(m[2], new Set([...(byModule.get(m[2]) ?? []), ...names]));
  }
  return byModule;
}

/** The modules the index re-exports from, in its order. */
function publicModules() {
  return [...publicNames().keys()];
}

module.exports = { publicNames, publicModules };

// TypeDoc's configuration for docs/api/ (`npm run docs`): one page per module that lib/index.ts
// re-exports from, each listing only what the index exports of it (the plugin
// scripts/typedoc-public-api.mjs removes the rest). The entry points follow the index.
"use strict";
const { publicModules } = require("./scripts/typedoc-public-api-names.cjs");

/** @type {Partial<import("typedoc").TypeDocOptions>} */
module.exports = {
  entryPoints: publicModules().map((m) => `lib/${m}.ts`),
  out: "docs/api",
  plugin: ["typedoc-plugin-markdown", "./scripts/typedoc-public-api.mjs"],
  readme: "none",
  name: "coder-cdktf",
  disableSources: true,
  excludePrivate: true,
  excludeInternal: true,
  excludeExternals: true,
  hideGenerator: true,
  hidePageHeader: true,
  hideBreadcrumbs: true,
  outputFileStrategy: "modules",
  validation: { notExported: false, invalidLink: false, notDocumented: false },
  logLevel: "Warn",
};

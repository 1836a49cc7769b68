#!/usr/bin/env node
// `npm run preview`: scripts/commands/run-preview.ts, bundled with the plan harness
// (scripts/run-bundled.js): loading cdktf and the constructs from source was a third of a
// preview, and the harness from source another ~0.15 s. Its temp folders (the configuration
// and the Dev Container variables among them) are in one private folder removed at exit. The
// synthesized template is kept in build/preview-synth/ for the next preview of the same code
// and configuration (app/preview/synth-cache.ts): the bundle is rewritten whenever one of its
// inputs changes, and its size and time name the code.
"use strict";
const fs = require("fs");
const path = require("path");
const { BUILD, runPlanningCommand } = require("./run-bundled");

runPlanningCommand({
  entry: "scripts/commands/run-preview.ts",
  name: "preview",
  tmpPrefix: "coder-cdktf-preview-run-",
  label: "preview failed",
  prepare: (exports, bundle) => {
    const stat = fs.statSync(bundle);
    exports.useSynthCache({
      dir: path.join(BUILD, "preview-synth"),
      codeVersion: `${stat.size}-${stat.mtimeMs}`,
    });
    return exports.runPreview;
  },
});

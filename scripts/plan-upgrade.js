#!/usr/bin/env node
// `npm run plan-upgrade`: scripts/commands/plan-upgrade.ts, bundled with the plan harness,
// its temp folders (which hold each workspace's state, and so its tokens) in one private
// folder removed at exit (scripts/run-bundled.js).
"use strict";
require("./run-bundled").runPlanningCommand({
  entry: "scripts/commands/plan-upgrade.ts",
  name: "plan-upgrade",
  tmpPrefix: "coder-cdktf-plan-upgrade-",
  label: "plan-upgrade",
  prepare: (exports) => exports.runPlanUpgrade,
});

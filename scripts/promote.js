#!/usr/bin/env node
// `npm run promote`: scripts/commands/promote.ts, bundled (scripts/run-bundled.js).
"use strict";
require("./run-bundled").runBundled("promote");

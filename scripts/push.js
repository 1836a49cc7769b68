#!/usr/bin/env node
// `npm run push`: scripts/commands/push.ts, bundled (scripts/run-bundled.js).
"use strict";
require("./run-bundled").runBundled("push");

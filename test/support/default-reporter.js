// jest reporter: jest's default progress and per-file output. jest.config.js lists it with
// summary-reporter.js instead of "default" (which is this and jest's own summary).
"use strict";
module.exports = require("@jest/reporters").DefaultReporter;

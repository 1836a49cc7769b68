// jest testEnvironment under Stryker (scripts/mutate.js): Stryker loads the environment with
// Node's own require, not through jest's transform, so this loads the project's TypeScript
// environment (shared-mock-environment.ts) through scripts/ts.js.
"use strict";
require("../../scripts/ts").register();
const environment = require("./shared-mock-environment.ts");
module.exports = environment.default ?? environment;

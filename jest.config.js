/** @type {import('jest').Config} */
module.exports = {
  // Node's, with one mock provider process per worker for the plan harness.
  testEnvironment: "<rootDir>/test/support/shared-mock-environment.ts",
  // Jest 30 "soft"-deletes what a test file left on its globals when the file ends: it walks
  // the objects reachable from them and wraps each property in a warning getter. That walk
  // cost ~5% of the suite's CPU (paired runs, 2026-12-01: 152-180 s against 159-199 s), and
  // without it a worker's memory stays where it was (at most 655-718 MB against 611-690 MB).
  testEnvironmentOptions: { globalsCleanup: "off" },
  roots: ["<rootDir>/test", "<rootDir>/packages/terraform-harness/test"],
  testMatch: ["**/*.test.ts"],
  // The project's one way to run TypeScript (esbuild, tsconfig.json's options): scripts/ts.js.
  transform: { "^.+\\.ts$": "<rootDir>/scripts/ts.js" },
  // Names the transform cache's folder, which is otherwise a hash of the project's path: a copy
  // of the project elsewhere (test/core/new-template.test.ts) then finds what this one
  // transformed. scripts/ts.js keys each entry by the file's path from the root and its source.
  id: "coder-cdktf",
  // Terraform plans and shell scripts dominate; two workers fit the 2-core machines.
  maxWorkers: 2,
  // Snapshots are never written by a plain run: a missing one fails. `npm run snapshots:update`.
  ci: true,
  // jest's default reporters, its summary naming `npm run snapshots:update` and ending with a
  // line of what was skipped and why (test/support/summary-reporter.js).
  reporters: [
    "<rootDir>/test/support/default-reporter.js",
    "<rootDir>/test/support/summary-reporter.js",
  ],
  testTimeout: 60000,
  // Every template is synthesized once per run; test files read it (test/support/synth-template.ts).
  // jest's runtime with V8's code cache for the modules every test file compiles again.
  runtime: "<rootDir>/test/support/code-cache-runtime.js",
  globalSetup: "<rootDir>/test/support/global-setup.ts",
  globalTeardown: "<rootDir>/test/support/global-teardown.ts",
  // The plan harness is told what synth writes beside cdk.tf.json (test/support/harness-setup.ts).
  setupFiles: [
    "<rootDir>/test/support/harness-setup.ts",
    "<rootDir>/test/support/cheap-creation-stacks.ts",
  ],
  // cdktf loads "archiver" at start only to zip ARCHIVE assets, which no template has: the
  // bundles' stub (scripts/bundle-stubs/archiver.js) saves ~50 ms of every test file that
  // loads cdktf.
  moduleNameMapper: { "^archiver$": "<rootDir>/scripts/bundle-stubs/archiver.js" },
  modulePathIgnorePatterns: ["<rootDir>/build/", "<rootDir>/cdktf.out/"],
};

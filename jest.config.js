/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["@swc/jest", { jsc: { target: "es2022" } }] },
  // Terraform plans and shell scripts dominate; two workers fit the 2-core machines.
  maxWorkers: 2,
  // Snapshots are never written by a plain run: a missing one fails. `npm run snapshots:update`.
  ci: true,
  testTimeout: 60000,
  // Every template is synthesized once per run; test files read it (test/support/synth-template.ts).
  globalSetup: "<rootDir>/test/support/global-setup.ts",
  globalTeardown: "<rootDir>/test/support/global-teardown.ts",
  modulePathIgnorePatterns: ["<rootDir>/build/", "<rootDir>/cdktf.out/"],
};

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["@swc/jest", { jsc: { target: "es2022" } }] },
  // Terraform plans and shell scripts dominate; two workers fit the 2-core machines.
  maxWorkers: 2,
  testTimeout: 60000,
  modulePathIgnorePatterns: ["<rootDir>/build/", "<rootDir>/cdktf.out/"],
};

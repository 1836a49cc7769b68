// The harness's own tests, alone: `npm test -w @coder-cdktf/terraform-harness`. The root
// suite (`npm test`) runs them too, with the same TypeScript transform.
const path = require("path");
const project = require("../../jest.config.js");

const projectRoot = path.resolve(__dirname, "..", "..");

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  rootDir: __dirname,
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: JSON.parse(JSON.stringify(project.transform).split("<rootDir>").join(projectRoot)),
  maxWorkers: project.maxWorkers,
  testTimeout: project.testTimeout,
};

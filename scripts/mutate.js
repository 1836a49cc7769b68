#!/usr/bin/env node
// `npm run mutate -- <source…> [<test file…>]`: mutation testing with Stryker and its jest
// runner. Stryker changes the named sources one mutant at a time (an operator, a condition,
// a string, a removed call…) and runs the tests on each; a mutant no test notices "survives"
// and points at a promise no test holds. The score is the share of mutants killed.
//
//   npm run mutate -- lib/policy/privileged-containers.ts
//   npm run mutate -- lib/devcontainer/runtime.ts test/devcontainer/runtime.test.ts
//   npm run mutate -- 'lib/devcontainer/**/*.ts'          (slow: every related test per mutant)
//
// The tests: those named (`*.test.ts`), else each source's mirror under test/ (lib/a/b.ts →
// test/a/b.test.ts) when all of them have one, else every test jest finds related to the
// sources. Stryker copies the project to build/stryker-tmp/ and writes its HTML report to
// build/stryker/mutation.html. Mutants inside an hcl`…` template are whole-string only:
// Terraform expressions are Terraform's to mutate, which the plan tests cover instead.
"use strict";
const { spawnSync } = require("child_process");
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..");
const args = process.argv.slice(2);
if (args.length === 0 || args.includes("--help")) {
  process.stderr.write("usage: npm run mutate -- <source file or glob…> [<test file…>]\n");
  process.exit(args.length === 0 ? 2 : 0);
}
const tests = args.filter((a) => a.endsWith(".test.ts"));
const sources = args.filter((a) => !a.endsWith(".test.ts"));
if (sources.length === 0) {
  process.stderr.write("mutate: name at least one source file to mutate\n");
  process.exit(2);
}

/** lib/a/b.ts → test/a/b.test.ts, if that exists. */
function mirroredTest(source) {
  const rel = path.relative(root, path.resolve(source)).split(path.sep).join("/");
  const m = /^(?:lib|app)\/(.+)\.ts$/.exec(rel);
  const candidate = m && `test/${m[1]}.test.ts`;
  return candidate && fs.existsSync(path.join(root, candidate)) ? candidate : undefined;
}

const mirrors = sources.map(mirroredTest);
const selected = tests.length > 0 ? tests : mirrors.every(Boolean) ? mirrors : [];
const config = {
  $schema: "../../node_modules/@stryker-mutator/core/schema/stryker-schema.json",
  testRunner: "jest",
  plugins: ["@stryker-mutator/jest-runner"],
  mutate: sources,
  jest: {
    projectType: "custom",
    configFile: "jest.config.js",
    // Only the selected tests; with none, jest's --findRelatedTests for each mutated file.
    enableFindRelatedTests: selected.length === 0,
    config: {
      // Stryker requires the environment itself, from the sandbox, without jest's transform.
      testEnvironment: "./test/support/stryker-environment.js",
      ...(selected.length > 0
        ? { testMatch: selected.map((t) => `<rootDir>/${t.split(path.sep).join("/")}`) }
        : {}),
    },
  },
  // Which tests cover each mutant, so a mutant runs only those.
  coverageAnalysis: "perTest",
  // The machine is small and the plan tests run Terraform: one sandbox at a time.
  concurrency: 1,
  // Added to 1.5 times the tests' own time: a mutant that loops is given up on soon.
  timeoutMS: 10000,
  tempDirName: "build/stryker-tmp",
  ignorePatterns: ["build", "cdktf.out", "coverage", "docs/api"],
  reporters: ["clear-text", "progress", "html"],
  htmlReporter: { fileName: "build/stryker/mutation.html" },
  clearTextReporter: { allowColor: false, logTests: false },
  cleanTempDir: true,
};
const file = path.join(root, "build", "stryker", "stryker.config.json");
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
process.stdout.write(
  `mutating ${sources.join(", ")}; tests: ${selected.length > 0 ? selected.join(", ") : "jest's related tests"}\n`,
);
const run = spawnSync(
  process.execPath,
  [path.join(root, "node_modules", "@stryker-mutator", "core", "bin", "stryker.js"), "run", file],
  { cwd: root, stdio: "inherit", env: { ...process.env, CHECKPOINT_DISABLE: "1" } },
);
process.exit(run.status ?? 1);

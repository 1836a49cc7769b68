/**
 * The suite's summary (test/support/summary-reporter.js): its snapshot hint names
 * `npm run snapshots:update`, and its last line counts the skipped tests by the reason their
 * names give.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Reporter = require("./summary-reporter");

type TestStatus = "passed" | "failed" | "pending" | "skipped" | "todo";
const file = (tests: [string[], string, TestStatus][]) => ({
  testResults: tests.map(([ancestorTitles, title, status]) => ({ ancestorTitles, title, status })),
});

test("counts the skipped tests by the reason in their names", () => {
  const results = {
    testResults: [
      file([
        [
          ["sourced by BusyBox sh"],
          "sets the default [skipped: BusyBox is not installed]",
          "pending",
        ],
        [["seed (busybox) [skipped: BusyBox is not installed]"], "copies the home", "pending"],
        [[], "lints [skipped: shellcheck is not installed]", "pending"],
        [[], "runs", "passed"],
      ]),
      file([[[], "is untitled", "skipped"]]),
    ],
  };
  expect(Reporter.skippedSummary(results, {})).toBe(
    "Skipped: 4 tests: 2 (BusyBox is not installed), 1 (no reason given), 1 (shellcheck is not installed).",
  );
  expect(
    Reporter.skippedSummary(
      { testResults: [file([[[], "x", "pending"]])] },
      { testNamePattern: "y" },
    ),
  ).toBe("Skipped: 1 test: 1 (not matching --testNamePattern).");
  expect(Reporter.skippedSummary({ testResults: [file([[[], "x", "passed"]])] }, {})).toBe(
    "Skipped: nothing.",
  );
});

test("the snapshot hint names npm run snapshots:update", () => {
  const reporter = new Reporter({}, {});
  const lines: string[] = [];
  reporter.log = (message: string) => lines.push(message);
  const previous = {
    event: process.env.npm_lifecycle_event,
    script: process.env.npm_lifecycle_script,
  };
  process.env.npm_lifecycle_event = "test";
  process.env.npm_lifecycle_script = "jest";
  try {
    reporter._printSnapshotSummary(
      {
        added: 0,
        didUpdate: false,
        failure: true,
        filesAdded: 0,
        filesRemoved: 0,
        filesRemovedList: [],
        filesUnmatched: 1,
        filesUpdated: 0,
        matched: 0,
        total: 1,
        unchecked: 0,
        uncheckedKeysByFile: [],
        unmatched: 1,
        updated: 0,
      },
      { rootDir: process.cwd() },
    );
  } finally {
    for (const [key, value] of [
      ["npm_lifecycle_event", previous.event],
      ["npm_lifecycle_script", previous.script],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
  const text = lines.join("\n");
  expect(text).toContain("1 snapshot failed");
  expect(text).toContain("run `npm run snapshots:update`");
  expect(text).not.toContain("-u`");
});

// jest reporter: jest's summary, with two things a contributor needs at the end of `npm test`.
// - The snapshot hint names the project's command, `npm run snapshots:update` (jest's own says
//   `npm test -- -u`, which jest.config.js's `ci: true` would make write every snapshot of the
//   run, not only the template snapshots' test).
// - A last line says what was skipped and why: tests declare a skip with the reason in their
//   name, `[skipped: <reason>]` (test/support/shellcheck.ts, the script tests' toolsets), so
//   a run on a machine without BusyBox, shellcheck or root says what it left out.
"use strict";
const { SummaryReporter } = require("@jest/reporters");

const SNAPSHOT_COMMAND = "npm run snapshots:update";
const UPDATE_HINT = /run `[^`]*-u`|re-run jest with `-u`|press `u`/g;
const REASON = /\[skipped: ([^\]]+)\]/;

/** Counts by reason of the tests a run skipped, as one line. */
function skippedSummary(aggregatedResults, globalConfig) {
  const reasons = new Map();
  for (const file of aggregatedResults.testResults) {
    for (const test of file.testResults) {
      if (test.status !== "pending" && test.status !== "skipped" && test.status !== "todo") {
        continue;
      }
      const name = [...test.ancestorTitles, test.title].join(" ");
      const reason =
        REASON.exec(name)?.[1] ??
        (globalConfig.testNamePattern ? "not matching --testNamePattern" : "no reason given");
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
  }
  if (reasons.size === 0) return "Skipped: nothing.";
  const total = [...reasons.values()].reduce((a, b) => a + b, 0);
  const parts = [...reasons]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([reason, count]) => `${count} (${reason})`);
  return `Skipped: ${total} test${total === 1 ? "" : "s"}: ${parts.join(", ")}.`;
}

class ProjectSummaryReporter extends SummaryReporter {
  _printSnapshotSummary(snapshots, globalConfig) {
    const log = this.log;
    this.log = (message) =>
      log.call(this, message.replace(UPDATE_HINT, `run \`${SNAPSHOT_COMMAND}\``));
    try {
      super._printSnapshotSummary(snapshots, globalConfig);
    } finally {
      this.log = log;
    }
  }

  onRunComplete(testContexts, aggregatedResults) {
    super.onRunComplete(testContexts, aggregatedResults);
    if (aggregatedResults.numTotalTestSuites > 0) {
      this.log(skippedSummary(aggregatedResults, this._globalConfig));
    }
  }
}

module.exports = ProjectSummaryReporter;
module.exports.skippedSummary = skippedSummary;
module.exports.SNAPSHOT_COMMAND = SNAPSHOT_COMMAND;

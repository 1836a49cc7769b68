/**
 * The rules Coder's provider applies to a preset's prebuild schedules, checked at synth:
 * the cron form it accepts and when two schedules overlap (it refuses overlapping ones).
 */
import {
  prebuildCronProblem,
  prebuildSchedulesOverlap,
} from "../../lib/constructs/workspace-preset";

it.each([["* 8-18 * * 1-5"], ["* * * * *"], ["* 0,12 1-15 1-6 *"], ["  * 9 * * 0  "]])(
  "accepts %j",
  (cron) => {
    expect(prebuildCronProblem(cron)).toBeUndefined();
  },
);

it.each([
  ["* 8-18 * *", /has 4 fields/],
  ["30 8 * * *", /minute field must be "\*"/],
  ["* 24 * * *", /hour field "24" is outside 0-23/],
  ["* * 0 * *", /day of month field "0" is outside 1-31/],
  ["* * * 13 *", /month field "13" is outside 1-12/],
  ["* * * * 7", /day of week field "7" is outside 0-6/],
  ["* 18-8 * * *", /ends before it starts/],
  ["* * * * MON", /Coder refuses steps and names/],
  ["* 8-18/2 * * *", /Coder refuses steps and names/],
  ["* *,5 * * *", /Coder refuses steps and names/],
])("refuses %j", (cron, reason) => {
  expect(prebuildCronProblem(cron)).toMatch(reason);
});

it.each([
  ["* 8-18 * * 1-5", "* 18-20 * * 1-5", true],
  ["* 8-18 * * 1-5", "* 19-23 * * 1-5", false],
  ["* 8-18 * * 1-5", "* 8-18 * * 0,6", false],
  ["* 8 * 1-6 *", "* 8 * 7-12 *", false],
  // A day of month `*` compares the days of week only, and the other way round.
  ["* 8 * * 1", "* 8 15 * 1", true],
  ["* 8 1-10 * *", "* 8 11-20 * *", false],
  ["* 8 1-10 * 1", "* 8 11-20 * 2", false],
  ["* 8 1-10 * 1", "* 8 11-20 * 1", true],
])("%j and %j overlap: %s", (a, b, overlap) => {
  expect(prebuildSchedulesOverlap(a, b)).toBe(overlap);
  expect(prebuildSchedulesOverlap(b, a)).toBe(overlap);
});

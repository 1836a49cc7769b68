/**
 * The API report (docs/api-report.md, app/api-report.ts) is the public API's contract: it is
 * regenerated from lib/index.ts here and must equal the committed page, so that a change of a
 * template-facing signature is a reviewed diff, and no public signature names a type the
 * index does not export.
 */
import * as fs from "fs";
import * as path from "path";
import { API_REPORT_COMMAND, API_REPORT_FILE, renderApiReport } from "../../app/api-report";
import { projectRoot } from "../../lib/core/project-root";

const root = projectRoot();
const report = renderApiReport(root);

test(`docs/api-report.md is the current public API (\`npm run api:update\` when this fails)`, () => {
  const committed = fs.readFileSync(path.join(root, API_REPORT_FILE), "utf8");
  // A message that names the command, then the diff.
  if (committed !== report) {
    expect(`${API_REPORT_FILE} is stale: run \`${API_REPORT_COMMAND}\``).toBe("current");
  }
  expect(committed).toBe(report);
});

test("no public signature uses a project type the index does not export", () => {
  expect(report).toMatch(/Types a public signature uses but the index does not export:\nnone\./);
});

test("the report lists named exports only, each under the module that declares it", () => {
  const index = fs.readFileSync(path.join(root, "lib/index.ts"), "utf8");
  expect(index).not.toMatch(/export \*/);
  expect(report).toMatch(
    /## lib\/constructs\/workspace-agent\.ts\n\n```ts\n[^`]*class WorkspaceAgent/,
  );
  // A library-only constant stays out of the index, and so out of the report.
  expect(report).not.toContain("RESTRICTED_CONTAINER_SECURITY");
});

// `npm run api:update [-- --check]`: writes docs/api-report.md, the public API's declarations
// (app/api-report.ts). With --check it only compares and fails when the page is not current.
import * as fs from "fs";
import * as path from "path";
import { parseArgs } from "node:util";
import { API_REPORT_COMMAND, API_REPORT_FILE, renderApiReport } from "../../app/api-report";
import { projectRoot } from "../../lib/core/project-root";

const { values } = parseArgs({ options: { check: { type: "boolean", default: false } } });
const file = path.join(projectRoot(), API_REPORT_FILE);
const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
const report = renderApiReport(projectRoot());
if (report === current) {
  process.stdout.write(`${API_REPORT_FILE} is up to date\n`);
} else if (values.check) {
  process.stderr.write(`${API_REPORT_FILE} is stale; run \`${API_REPORT_COMMAND}\`\n`);
  process.exit(1);
} else {
  fs.writeFileSync(file, report);
  process.stdout.write(`wrote ${API_REPORT_FILE}\n`);
}

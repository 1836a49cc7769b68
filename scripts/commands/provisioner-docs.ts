// `npm run docs:provisioners [-- --check]`: writes docs/provisioners.md from the template
// registry. With --check it only compares, and fails when the checked-in page is stale.
// Run from source: `node scripts/ts.js scripts/commands/provisioner-docs.ts …` (scripts/ts.js).
import * as fs from "fs";
import * as path from "path";
import { projectRoot } from "../../lib/core/project-root";
import { REGENERATE_COMMAND } from "../../app/provisioner-docs";
import { generateProvisionerDocs, PROVISIONER_DOCS_FILE } from "../../app/provisioner-docs-file";

try {
  const file = path.join(projectRoot(), PROVISIONER_DOCS_FILE);
  const content = generateProvisionerDocs();
  if (process.argv.includes("--check")) {
    const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    if (current !== content) {
      process.stderr.write(`${PROVISIONER_DOCS_FILE} is stale: run \`${REGENERATE_COMMAND}\`\n`);
      process.exit(1);
    }
    process.stdout.write(`${PROVISIONER_DOCS_FILE} is up to date\n`);
  } else {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    process.stdout.write(`wrote ${PROVISIONER_DOCS_FILE}\n`);
  }
} catch (e) {
  process.stderr.write(`docs:provisioners failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}

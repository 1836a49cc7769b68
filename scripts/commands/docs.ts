// `npm run docs [-- --check]`: regenerates the generated documentation: the README's
// template table (app/readme-table.ts), docs/provisioners.md and the API reference
// docs/api/ (TypeDoc over lib/index.ts, run only when its sources changed: app/api-docs.ts).
// With --check it only compares and fails, naming the stale files, when one differs.
import * as fs from "fs";
import * as path from "path";
import { parseArgs } from "node:util";
import { spawnSync } from "node:child_process";
import {
  API_DOCS_PAGE,
  publicApiFingerprint,
  recordedFingerprint,
  withFingerprint,
} from "../../app/api-docs";
import { projectRoot } from "../../lib/core/project-root";
import { generateProvisionerDocs, PROVISIONER_DOCS_FILE } from "../../app/provisioner-docs-file";
import { README_FILE, withTemplateTable } from "../../app/readme-table";

/** Each generated file and how to make its content from the checked-in one. */
const GENERATED: readonly { file: string; render(current: string, check: boolean): string }[] = [
  { file: README_FILE, render: (current) => withTemplateTable(current) },
  { file: PROVISIONER_DOCS_FILE, render: () => generateProvisionerDocs() },
  { file: API_DOCS_PAGE, render: renderApiDocs },
];

/** docs/api/ by TypeDoc (typedoc.config.cjs), unless the recorded fingerprint is current. */
function renderApiDocs(current: string, check: boolean): string {
  const root = projectRoot();
  const fingerprint = publicApiFingerprint(root);
  if (recordedFingerprint(current) === fingerprint) return current;
  if (check) return "(stale)";
  const run = spawnSync(
    process.execPath,
    [path.join(root, "node_modules", "typedoc", "bin", "typedoc")],
    {
      cwd: root,
      encoding: "utf8",
    },
  );
  if (run.status !== 0) throw new Error(`typedoc failed:\n${run.stdout}${run.stderr}`);
  return withFingerprint(fs.readFileSync(path.join(root, API_DOCS_PAGE), "utf8"), fingerprint);
}

/**
 * Renders every generated file; writes those that differ unless `check`. Returns the files
 * that differed. Also run by `npm run new-template` in its --record process.
 */
export function updateGeneratedDocs(check: boolean): string[] {
  const stale: string[] = [];
  for (const { file, render } of GENERATED) {
    const abs = path.join(projectRoot(), file);
    const current = fs.existsSync(abs) ? fs.readFileSync(abs, "utf8") : "";
    const content = render(current, check);
    if (content === current) continue;
    stale.push(file);
    if (!check) fs.writeFileSync(abs, content);
  }
  return stale;
}

if (require.main === module) {
  try {
    const { values } = parseArgs({ options: { check: { type: "boolean", default: false } } });
    const stale = updateGeneratedDocs(values.check === true);
    if (values.check && stale.length > 0) {
      process.stderr.write(`stale: ${stale.join(", ")}; run \`npm run docs\`\n`);
      process.exit(1);
    }
    process.stdout.write(
      stale.length === 0 ? "generated docs are up to date\n" : `wrote ${stale.join(", ")}\n`,
    );
  } catch (e) {
    process.stderr.write(`docs failed: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
}

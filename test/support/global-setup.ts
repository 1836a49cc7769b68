/**
 * jest globalSetup: synthesizes every template once for the whole run (see synth-template.ts),
 * checks Terraform once and names the run's cache of harness results (packages/terraform-harness/src/run-cache.ts),
 * kept inside the same temp dir. Workers start after this and inherit the environment variables.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { synthTemplates } from "../../app/synth";
import { withoutCdktfCreationStacks } from "../../lib/private/creation-stacks";
import { RUN_CACHE_ENV } from "@coder-cdktf/terraform-harness/src/run-cache";
import {
  CHECKED_TERRAFORM_ENV,
  requireTerraform,
} from "@coder-cdktf/terraform-harness/src/terraform-cli";
import { MODELS_DIR, SYNTHESIZED_DIR_ENV } from "./synth-template";

export default async function globalSetup(): Promise<void> {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "coder-cdktf-test-synth-"));
  const models = path.join(outdir, MODELS_DIR);
  fs.mkdirSync(models);
  // cdktf's creation stacks are skipped here too, as in the test files (cheap-creation-stacks.ts):
  // ~0.1 s of this process's CPU per run. The synthesized files do not contain them.
  for (const t of withoutCdktfCreationStacks(() => synthTemplates({ outdir }))) {
    fs.writeFileSync(path.join(models, `${t.id}.json`), JSON.stringify(t.model));
  }
  process.env[SYNTHESIZED_DIR_ENV] = outdir;
  process.env[RUN_CACHE_ENV] = path.join(outdir, "harness-runs");
  const searchPath = process.env.PATH ?? "";
  try {
    const version = await requireTerraform({ path: searchPath });
    process.env[CHECKED_TERRAFORM_ENV] = JSON.stringify({ path: searchPath, version });
  } catch {
    // Nothing recorded: each plan test file then fails with requireTerraform's message.
  }
}

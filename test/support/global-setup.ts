/**
 * jest globalSetup: synthesizes every template once for the whole run (see synth-template.ts).
 * Workers start after this and inherit the environment variable naming the output.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { synthTemplates } from "../../templates/synth";
import { SYNTHESIZED_DIR_ENV } from "./synth-template";

export default function globalSetup(): void {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "coder-cdktf-test-synth-"));
  synthTemplates({ outdir });
  process.env[SYNTHESIZED_DIR_ENV] = outdir;
}

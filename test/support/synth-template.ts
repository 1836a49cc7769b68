/**
 * The synthesized templates a test plans or inspects: what `coder templates push -d` uploads.
 *
 * Under jest, test/support/global-setup.ts synthesizes every template once per run into a temp
 * dir named by {@link SYNTHESIZED_DIR_ENV}, and test files read their template from there
 * (read-only: the plan harness works in copies) instead of each loading cdktf and synthesizing
 * again, which cost ~0.7 s per file. Elsewhere (the benchmark, one-off scripts) the template
 * is synthesized on the spot. Tests of synthesis itself call `synthTemplates` directly.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { rememberConfiguration } from "../../lib/private/stack-configuration";

/** Environment variable naming the run's synthesized output (an outdir with stacks/<id>). */
export const SYNTHESIZED_DIR_ENV = "CODER_CDKTF_TEST_SYNTH_DIR";

/** Where global-setup.ts keeps each template's configuration model: `<dir>/<id>.json`. */
export const MODELS_DIR = "models";

/** One synthesized template: its stack dir and its configuration. */
export interface SynthesizedTemplate<Config = Record<string, unknown>> {
  readonly dir: string;
  /**
   * The configuration as one Terraform JSON document: cdk.tf.json with what synth writes
   * to locals.tf and main.tf (app/synth.ts `model`).
   */
  readonly config: Config;
  /** Removes what this call created (nothing when the run's shared output was used). */
  cleanup(): void;
}

/** The synthesized template `id`; see the module comment for where it comes from. */
export function synthTemplate<Config = Record<string, unknown>>(
  id: string,
): SynthesizedTemplate<Config> {
  const shared = process.env[SYNTHESIZED_DIR_ENV];
  if (shared) {
    const dir = path.join(shared, "stacks", id);
    if (!fs.existsSync(dir)) {
      throw new Error(`no synthesized template "${id}" in ${shared} (${SYNTHESIZED_DIR_ENV})`);
    }
    const model = path.join(shared, MODELS_DIR, `${id}.json`);
    const config = JSON.parse(fs.readFileSync(model, "utf8")) as Config;
    // The folder's main.tf holds its variables and modules: the harness reads them from here.
    rememberConfiguration(dir, config as Record<string, unknown>);
    return { dir, config, cleanup: () => undefined };
  }
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), `synth-${id}-`));
  // Loaded only here: importing the templates costs what the shared output saves.
  const { synthTemplates } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require("../../app/synth") as typeof import("../../app/synth");
  const [t] = synthTemplates({ outdir, only: [id] });
  return {
    dir: t.dir,
    config: t.model as Config,
    cleanup: () => fs.rmSync(outdir, { recursive: true, force: true }),
  };
}

/**
 * An App for tests that synthesize in memory (Testing.synth): cdktf's `Testing.app()` with no
 * outdir makes a fresh `cdktf.outdir.*` folder in the temp dir on every call and never removes
 * it (42 of them a run, thousands over a week of runs). Nothing is written to this outdir;
 * a test that synthesizes to disk makes and removes a folder of its own.
 */
import { tmpdir } from "node:os";
import { App, Testing } from "../../lib/core/cdk";

export function testApp(): App {
  return Testing.app({ outdir: tmpdir() }) as App;
}

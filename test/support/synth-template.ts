import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { synthTemplates } from "../../templates/synth";

/**
 * Synthesizes one template into a fresh temp folder and returns its stack dir
 * (what `coder templates push -d` would upload). Call from beforeAll; the
 * folder is removed by `cleanup()`.
 */
export function synthTemplate(id: string): {
  dir: string;
  config: Record<string, unknown>;
  cleanup(): void;
} {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), `synth-${id}-`));
  const [t] = synthTemplates({ outdir, only: [id] });
  const config = JSON.parse(fs.readFileSync(path.join(t.dir, "cdk.tf.json"), "utf8")) as Record<
    string,
    unknown
  >;
  return { dir: t.dir, config, cleanup: () => fs.rmSync(outdir, { recursive: true, force: true }) };
}

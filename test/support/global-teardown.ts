/** jest globalTeardown: removes the run's synthesized templates (see global-setup.ts). */
import * as fs from "fs";
import { SYNTHESIZED_DIR_ENV } from "./synth-template";

export default function globalTeardown(): void {
  const outdir = process.env[SYNTHESIZED_DIR_ENV];
  if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
}

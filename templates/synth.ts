import * as fs from "fs";
import * as path from "path";
import { App } from "../lib/cdk";
import { shipTemplateFiles } from "../lib/template-files";
import { TEMPLATES } from "./index";

export interface SynthesizedTemplate {
  readonly id: string;
  /** cdktf.out/stacks/<id>: what `coder templates push -d` uploads. */
  readonly dir: string;
}

export interface SynthOptions {
  /** @default "cdktf.out" (or $CDKTF_OUTDIR when run by the cdktf CLI) */
  readonly outdir?: string;
  /** Template ids to synthesize. @default all */
  readonly only?: readonly string[];
}

/** Synthesizes templates into <outdir>/stacks/<id>/ with the files each ships. */
export function synthTemplates(options: SynthOptions = {}): SynthesizedTemplate[] {
  const outdir = options.outdir ?? process.env.CDKTF_OUTDIR ?? "cdktf.out";
  const known = TEMPLATES.map((t) => t.id);
  for (const id of options.only ?? []) {
    if (!known.includes(id))
      throw new Error(`unknown template "${id}"; known: ${known.join(", ")}`);
  }
  const selected = TEMPLATES.filter((t) => !options.only || options.only.includes(t.id));
  const app = new App({ outdir });
  const stacks = selected.map((t) => t.create(app));
  app.synth();
  return stacks.map((stack) => {
    const dir = path.join(outdir, "stacks", stack.node.id);
    if (!fs.existsSync(path.join(dir, "cdk.tf.json")))
      throw new Error(`${dir}: cdk.tf.json was not written`);
    shipTemplateFiles(stack, dir);
    return { id: stack.node.id, dir };
  });
}

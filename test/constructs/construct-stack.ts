/**
 * Test support for the per-construct tests: put a construct into a minimal TemplateStack and
 * read back the synthesized Terraform JSON (in memory), or write it to a folder to plan.
 *
 * A TemplateStack, not a plain TerraformStack, so that addresses are the construct ids the
 * templates rely on and the template policies run as they do for real templates.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, Testing } from "../../lib/core/cdk";
import { writeHclFiles } from "../../lib/private/hcl-files";
import { writeShippedFiles } from "../../lib/core/shipped-file";
import { TemplateStack } from "../../lib/constructs/template-stack";

/** The stack id; synthesized folders are `<outdir>/stacks/<STACK_ID>`. */
export const STACK_ID = "construct";

/** cdk.tf.json as parsed JSON; its shape is Terraform's, not ours. */
export type TerraformJson = Record<string, any>;

function newStack(outdir: string): { app: App; stack: TemplateStack } {
  const app = new App({ outdir });
  const stack = new TemplateStack(app, STACK_ID, {
    sourceDir: "templates/kubernetes",
    frontMatter: { displayName: "Construct test", description: "d", icon: "/icon/k8s.png" },
  });
  return { app, stack };
}

/**
 * Builds a stack with `build` and returns its Terraform JSON. Nothing is written to disk
 * (Testing.synth runs the aspects, so the template policies apply).
 */
export function synthConstruct(build: (stack: TemplateStack) => void): TerraformJson {
  const { stack } = newStack(tmpdir());
  build(stack);
  return JSON.parse(Testing.synth(stack)) as TerraformJson;
}

/** A synthesized stack on disk, ready for the harness. */
export interface SynthesizedDir {
  /** The folder holding cdk.tf.json. */
  readonly dir: string;
  cleanup(): void;
}

/** Builds a stack with `build` and synthesizes it into a fresh temp folder. */
export function synthConstructToDir(build: (stack: TemplateStack) => void): SynthesizedDir {
  const outdir = mkdtempSync(join(tmpdir(), "construct-"));
  try {
    const { app, stack } = newStack(outdir);
    build(stack);
    app.synth();
    // As app/synth.ts does: what is planned is what a template ships.
    writeShippedFiles(stack, join(outdir, "stacks", STACK_ID));
    writeHclFiles(join(outdir, "stacks", STACK_ID));
  } catch (error) {
    rmSync(outdir, { recursive: true, force: true });
    throw error;
  }
  return {
    dir: join(outdir, "stacks", STACK_ID),
    cleanup: () => rmSync(outdir, { recursive: true, force: true }),
  };
}

import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { App, TerraformVariable } from "../../lib/core/cdk";
import { TemplateStack } from "../../lib/constructs/template-stack";
import { coderProvider } from "../../lib/constructs/providers";
import { WorkspaceAgent } from "../../lib/constructs/workspace-agent";
import { TerraformHarness } from "@coder-cdktf/terraform-harness";

// Terraform, not the harness, judges a synthesized config: a misspelled attribute and a
// value of the wrong type in cdk.tf.json fail `terraform validate` with Terraform's words.

let tf: TerraformHarness;
const scratch: string[] = [];
beforeAll(async () => (tf = await TerraformHarness.start()));
afterAll(async () => {
  await tf?.stop();
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
});

/** Synthesizes a stack with one agent, changed by `edit`, and returns its folder. */
function synthesizedAgent(edit: (agent: WorkspaceAgent) => void): string {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "validate-synth-"));
  scratch.push(outdir);
  const app = new App({ outdir });
  const stack = new TemplateStack(app, "t", {
    sourceDir: "templates/kubernetes",
    frontMatter: { displayName: "T", description: "d", icon: "/icon/k8s.png" },
  });
  coderProvider(stack);
  edit(new WorkspaceAgent(stack, "agent"));
  app.synth();
  return path.join(outdir, "stacks", "t");
}

it("accepts the agent as synthesized", async () => {
  await expect(tf.validate(synthesizedAgent(() => undefined))).resolves.toEqual({
    valid: true,
    diagnostics: [],
  });
});

it("fails on a misspelled attribute, naming it", async () => {
  const dir = synthesizedAgent((a) => a.agent.addOverride("startup_scrip", "echo hi"));
  const result = await tf.validate(dir);
  expect(result.valid).toBe(false);
  expect(result.diagnostics.map((d) => `${d.severity}: ${d.detail}`)).toEqual([
    expect.stringMatching(/^error: .*No argument or block type is named "startup_scrip"/),
  ]);
});

it("fails on a value of the wrong type, naming the attribute", async () => {
  const dir = synthesizedAgent((a) => a.agent.addOverride("connection_timeout", "soon"));
  const result = await tf.validate(dir);
  expect(result.valid).toBe(false);
  expect(result.diagnostics).toEqual([
    expect.objectContaining({
      severity: "error",
      summary: "Incorrect attribute value type",
      detail: expect.stringContaining('Inappropriate value for attribute "connection_timeout"'),
    }),
  ]);
});

it("rejects a reference to another template's element instead of wiring remote state", async () => {
  // TemplateStack skips cdktf's preparing pass, which would have added a
  // terraform_remote_state data source and an output: neither can work between Coder
  // templates, which are pushed alone. The reference is written as it is, and Terraform
  // refuses it.
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "validate-synth-"));
  scratch.push(outdir);
  const app = new App({ outdir });
  const stackOf = (id: string) => {
    const stack = new TemplateStack(app, id, {
      sourceDir: "templates/kubernetes",
      frontMatter: { displayName: id, description: "d", icon: "/icon/k8s.png" },
    });
    coderProvider(stack);
    return stack;
  };
  const onlyInA = new TerraformVariable(stackOf("a"), "only_in_a", { type: "string" });
  new WorkspaceAgent(stackOf("b"), "agent").agent.addOverride("dir", onlyInA.stringValue);
  app.synth();

  const dir = path.join(outdir, "stacks", "b");
  const json = fs.readFileSync(path.join(dir, "cdk.tf.json"), "utf8");
  expect(json).not.toContain("remote_state");
  const result = await tf.validate(dir);
  expect(result.valid).toBe(false);
  expect(result.diagnostics.map((d) => `${d.severity}: ${d.summary}`)).toEqual([
    "error: Reference to undeclared input variable",
  ]);
});

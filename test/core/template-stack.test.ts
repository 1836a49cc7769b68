import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { App, TerraformVariable } from "../../lib/core/cdk";
import { TemplateStack } from "../../lib/constructs/template-stack";
import { escapeTemplateLiteral } from "../../lib/core/escape";
import { coderProvider } from "../../lib/constructs/providers";
import { WorkspaceParameter } from "../../lib/constructs/workspace-parameter";
import { DataCoderParameter } from "../../.gen/providers/coder/data-coder-parameter";
import { renderFrontMatter } from "../../app/template-files";

const FRONT = { displayName: "T", description: "d", icon: "/icon/k8s.png" };

function synth(build: (stack: TemplateStack) => void): Record<string, unknown> {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "stack-"));
  try {
    const app = new App({ outdir });
    const stack = new TemplateStack(app, "t", {
      sourceDir: "templates/kubernetes",
      frontMatter: FRONT,
    });
    build(stack);
    app.synth();
    return JSON.parse(fs.readFileSync(path.join(outdir, "stacks", "t", "cdk.tf.json"), "utf8"));
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

describe("escapeTemplateLiteral", () => {
  it.each([
    ["echo ${HOME}", "echo $${HOME}"],
    ['x="${line%%=*}"', 'x="$${line%%=*}"'],
    ["%{ if x }", "%%{ if x }"],
    ["no templates here: $HOME 50%", "no templates here: $HOME 50%"],
    ["$${already}", "$$${already}"],
  ])("escapes %j", (input, expected) => {
    expect(escapeTemplateLiteral(input)).toBe(expected);
  });
});

describe("TemplateStack", () => {
  it("names each element by its own construct id, not a path hash", () => {
    const tf = synth((stack) => {
      coderProvider(stack);
      new WorkspaceParameter(stack, "cpu", {
        order: 1,
        displayName: "CPU",
        description: "d",
        default: "2",
      });
      new TerraformVariable(stack, "namespace", { type: "string" });
    }) as { data: { coder_parameter: Record<string, unknown> }; variable: Record<string, unknown> };
    expect(Object.keys(tf.data.coder_parameter)).toEqual(["cpu"]);
    expect(Object.keys(tf.variable)).toEqual(["namespace"]);
  });

  it("fails synth when two resources of one type get the same address", () => {
    expect(() =>
      synth((stack) => {
        coderProvider(stack);
        new WorkspaceParameter(stack, "a", {
          order: 1,
          displayName: "A",
          description: "d",
          name: "a",
        });
        const scope = new WorkspaceParameter(stack, "b", {
          order: 2,
          displayName: "B",
          description: "d",
        });
        new DataCoderParameter(scope, "a", { name: "dup", order: 3 });
      }),
    ).toThrow(/address data\.coder_parameter\.a is already used by t\/a\/a/);
  });

  it("fails synth when a coder_parameter has no order, naming it", () => {
    expect(() =>
      synth((stack) => {
        coderProvider(stack);
        new DataCoderParameter(stack, "region", { name: "region" });
      }),
    ).toThrow(/data\.coder_parameter\.region has no numeric "order"/);
  });

  it("rejects a construct id that is not a Terraform name", () => {
    expect(() =>
      synth((stack) => {
        new TerraformVariable(stack, "bad name", { type: "string" });
      }),
    ).toThrow(/construct id "bad name" is not a valid Terraform name/);
  });

  it("rejects a parameter default that is not one of its options", () => {
    const app = new App({ outdir: os.tmpdir() });
    const stack = new TemplateStack(app, "t", {
      sourceDir: "templates/kubernetes",
      frontMatter: FRONT,
    });
    expect(
      () =>
        new WorkspaceParameter(stack, "size", {
          order: 1,
          displayName: "Size",
          description: "d",
          default: "3",
          options: [
            { name: "Two", value: "2" },
            { name: "Four", value: "4" },
          ],
        }),
    ).toThrow('t/size: default "3" is not one of the options (2, 4)');
  });

  it("writes front matter that YAML readers accept, quotes and all", () => {
    expect(
      renderFrontMatter({ displayName: 'Say "hi"', description: "a: b", icon: "/icon/x.svg" }),
    ).toBe('---\ndisplay_name: "Say \\"hi\\""\ndescription: "a: b"\nicon: "/icon/x.svg"\n---\n');
  });
});

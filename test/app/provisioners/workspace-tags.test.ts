import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { DataCoderWorkspaceTags } from "../../../.gen/providers/coder/data-coder-workspace-tags";
import { Fn, TerraformVariable } from "../../../lib/core/cdk";
import { RESOURCES_FILE } from "../../../lib/private/resources-file";
import { WorkspaceParameter } from "../../../lib/constructs/workspace-parameter";
import { WorkspaceTags, WORKSPACE_TAGS_FILE } from "../../../app/workspace-tags";
import { synthTemplates } from "../../../app/synth";
import { TerraformHarness } from "@coder-cdktf/terraform-harness";
import { terraformFmtCheck } from "../../support/terraform-fmt";
import { taggedTemplate, type TaggedTemplateProps } from "./tagged-template";

// Per-workspace tags: rendered to workspace_tags.tf (Coder reads them only from .tf
// files), checked at synth, and valid Terraform beside cdk.tf.json.

const scratch: string[] = [];
function synthTagged(props: TaggedTemplateProps = {}) {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "workspace-tags-"));
  scratch.push(outdir);
  const [result] = synthTemplates({ outdir, templates: [taggedTemplate(props)] });
  return result;
}
afterAll(() => scratch.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe("workspace_tags.tf", () => {
  let tf: TerraformHarness;
  let dir: string;
  beforeAll(async () => {
    tf = await TerraformHarness.start();
    dir = synthTagged().dir;
  });
  afterAll(() => tf.stop());

  const hcl = () => fs.readFileSync(path.join(dir, WORKSPACE_TAGS_FILE), "utf8");
  const json = () => JSON.parse(fs.readFileSync(path.join(dir, "cdk.tf.json"), "utf8"));
  const main = () => fs.readFileSync(path.join(dir, RESOURCES_FILE), "utf8");

  it("holds the tags as a literal object of references and escaped literals", () => {
    expect(hcl()).toContain(
      [
        'data "coder_workspace_tags" "routing" {',
        "  tags = {",
        '    "pool"   = var.pool',
        '    "region" = data.coder_parameter.region.value',
        '    "team"   = "platform $${not-interpolated}"',
        "  }",
        "}",
      ].join("\n"),
    );
  });

  it("moves the parameters the tags read to workspace_tags.tf, and only those", () => {
    expect(hcl()).toContain('data "coder_parameter" "region" {');
    expect(hcl()).toContain('  default      = "eu-west"');
    expect(hcl()).toContain("  mutable      = false");
    expect(hcl()).toContain(
      '  description  = "Where it runs; \\"quotes\\", \\\\backslashes\\\\ and $${literal} braces survive."',
    );
    expect(hcl()).toMatch(/ {2}option \{\n {4}name {2}= "Europe"\n {4}value = "eu-west"\n {2}\}/);
    // The others go where synth writes every data source (main.tf), none stays in the JSON.
    expect([...main().matchAll(/^data "coder_parameter" "(\w+)"/gm)].map((m) => m[1])).toEqual([
      "size",
    ]);
    expect(main()).not.toContain("coder_workspace_tags");
    expect(json().data).toBeUndefined();
  });

  it("is formatted as terraform fmt writes it", () => {
    expect(terraformFmtCheck(hcl())).toEqual({ output: "", status: 0 });
  });

  it("validates with cdk.tf.json beside it", async () => {
    await expect(tf.validate(dir)).resolves.toEqual({ valid: true, diagnostics: [] });
  });

  it("plans the tags from the parameter default and the variable", async () => {
    const plan = await tf.plan(dir, { variables: { api_token: "not-a-real-token" } });
    const [tags] = plan.dataSources("coder_workspace_tags");
    expect(tags.values.tags).toEqual({
      pool: "general",
      region: "eu-west",
      team: "platform ${not-interpolated}",
    });
  });
});

describe("synth refuses tags Coder cannot evaluate", () => {
  const fails = (props: TaggedTemplateProps, message: string) =>
    expect(() => synthTagged(props)).toThrow(message);

  it("a mutable parameter", () =>
    fails(
      { regionMutable: true },
      'template "tagged": workspace tag "region": data.coder_parameter.region is mutable',
    ));

  it("a parameter without a default", () =>
    fails(
      {
        extraTags: (stack) => ({
          zone: new WorkspaceParameter(stack, "zone", {
            order: 3,
            displayName: "Zone",
            description: "No default.",
          }).value,
        }),
      },
      'workspace tag "zone": data.coder_parameter.zone has no default',
    ));

  it("a sensitive variable", () =>
    fails(
      { extraTags: (stack) => ({ token: stack.secret.stringValue }) },
      'workspace tag "token": var.api_token is sensitive',
    ));

  it.each([
    ["number", 3],
    ["bool", true],
  ])("a variable of type %s: dynamic parameters take only string tag values", (type, value) =>
    fails(
      {
        extraTags: (stack) => ({
          typed: new TerraformVariable(stack, "typed", { type, default: value }).stringValue,
        }),
      },
      `workspace tag "typed": var.typed has type ${type}; with dynamic parameters Coder accepts only string tag values, so declare the variable with type = "string"`,
    ),
  );

  it("a variable without a default: the import job's tags come from defaults", () =>
    fails(
      {
        extraTags: (stack) => ({
          nodefault: new TerraformVariable(stack, "nodefault", { type: "string" }).stringValue,
        }),
      },
      'workspace tag "nodefault": var.nodefault has no default; Coder computes the tags of the template\'s import job from variable defaults',
    ));

  it("a variable with an empty default", () =>
    fails(
      {
        extraTags: (stack) => ({
          blank: new TerraformVariable(stack, "blank", { type: "string", default: "" }).stringValue,
        }),
      },
      'workspace tag "blank": var.blank has the default ""; a tag value is a non-empty string',
    ));

  it("an expression other than a plain reference", () =>
    fails(
      { extraTags: (stack) => ({ upper: Fn.upper(stack.pool.stringValue) }) },
      'workspace tag "upper": ${upper(var.pool)} is not a literal, a var.* or a data.coder_parameter.*.value',
    ));

  it("an empty literal", () =>
    fails({ extraTags: () => ({ empty: "" }) }, 'workspace tag "empty": it has the value ""'));

  it("coder_workspace_tags written to cdk.tf.json, where Coder ignores it", () =>
    fails(
      {
        extraTags: (stack) => {
          new DataCoderWorkspaceTags(stack, "raw", { tags: { a: "b" } });
          return {};
        },
      },
      'template "tagged": data.coder_workspace_tags is in cdk.tf.json, where Coder ignores it',
    ));

  it("a tag name Coder would misread", () =>
    fails(
      {
        extraTags: (stack) => {
          new WorkspaceTags(stack, "more", { tags: { "a=b": "c" } });
          return {};
        },
      },
      'tagged/more: tag name "a=b" is not allowed',
    ));
});

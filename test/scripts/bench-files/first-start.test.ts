import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TerraformHarness } from "@coder-cdktf/terraform-harness";
import {
  configurationCounts,
  declaredVariables,
  offlineCopy,
  withoutModules,
} from "../../../scripts/bench-files/first-start";
import { tempDirs } from "../../support/run-script";

/** An operator's HCL template (as `--first-start-vs-dir` takes one), in terraform fmt's layout. */
const HCL_TEMPLATE = `terraform {
  required_providers {
    coder = {
      source = "coder/coder"
    }
  }
}

variable "namespace" {
  type = string
}

locals {
  folder = "/home/coder/app"
  ports = {
    web = 3000
  }
}

data "coder_workspace" "me" {}

resource "coder_agent" "main" {
  os   = "linux"
  arch = "amd64"
}

module "vscode_web" {
  source         = "registry.coder.com/coder/vscode-web/coder"
  version        = "1.6.1"
  count          = data.coder_workspace.me.start_count
  agent_id       = coder_agent.main.id
  accept_license = true
  folder         = local.folder
}

module "helper" {
  source = "./helper"
}

output "namespace" {
  value = var.namespace
}
`;

/** The same configuration's JSON half, as cdktf writes cdk.tf.json. */
const JSON_HALF = {
  variable: { endpoint: { type: "string", default: "http://x" } },
  locals: { from_json: "${var.endpoint}" },
};

describe("the first-start bench's configurations (scripts/bench-files/first-start.ts)", () => {
  const temp = tempDirs();
  let template: string;
  beforeAll(() => {
    template = temp.make("first-start-template");
    writeFileSync(join(template, "main.tf"), HCL_TEMPLATE);
    writeFileSync(join(template, "cdk.tf.json"), JSON.stringify(JSON_HALF));
    mkdirSync(join(template, "helper"));
    writeFileSync(join(template, "helper", "main.tf"), 'locals {\n  a = 1\n  b = "two"\n}\n');
  });
  afterAll(() => temp.cleanup());

  it("reads variables, locals and module calls from HCL and JSON alike", () => {
    expect([...declaredVariables(template)].sort()).toEqual(["endpoint", "namespace"]);
    const counts = configurationCounts(template);
    // folder and ports (not web, a member of ports) in HCL, from_json in JSON.
    expect(counts.locals).toBe(3);
    expect(counts.modules).toBe(2);
    // The helper's two; the vscode-web stub the registry call resolves to declares none.
    expect(counts.moduleLocals).toBe(2);
  });

  it("drops the module calls, and only them, from a copy", () => {
    const copy = withoutModules(template, join(temp.make("first-start-no-modules"), "t"));
    const text = readFileSync(join(copy, "main.tf"), "utf8");
    expect(text).not.toMatch(/^module /m);
    expect(text).toContain('resource "coder_agent" "main" {');
    expect(configurationCounts(copy)).toEqual({ locals: 3, moduleLocals: 0, modules: 0 });
  });

  it("points an HCL registry call at the harness's stub, which init and plan then use", async () => {
    const copy = offlineCopy(template, join(temp.make("first-start-offline"), "t"));
    const text = readFileSync(join(copy, "main.tf"), "utf8");
    expect(text).toContain('source = "./.harness-modules/vscode-web@1.6.1"');
    expect(text).not.toMatch(/^\s+version\s*=/m);
    expect(existsSync(join(copy, ".harness-modules", "vscode-web@1.6.1", "main.tf"))).toBe(true);
    const tf = await TerraformHarness.start();
    try {
      const steps: string[] = [];
      await tf.initAndPlan(copy, { variables: { namespace: "ns" } }, async (name, run) => {
        const result = (await run()) as { stdout?: string; run?: { stdout: string } };
        steps.push(`${name}: ${result.stdout ?? result.run?.stdout ?? ""}`);
      });
      expect(steps[0]).toContain("vscode_web in .harness-modules/vscode-web@1.6.1");
      expect(steps[1]).toContain('"module.vscode_web[0].terraform_data.inputs"');
    } finally {
      await tf.stop();
    }
  });

  it("names a registry call that has no stub", () => {
    const dir = temp.make("first-start-no-stub");
    writeFileSync(
      join(dir, "main.tf"),
      'module "x" {\n  source = "registry.coder.com/coder/no-such-module/coder"\n}\n',
    );
    expect(() => offlineCopy(dir, join(temp.make("first-start-copy"), "t"))).toThrow(
      /module "x" .*no-such-module.*no stub/,
    );
  });
});

import { readFileSync } from "fs";
import { join } from "path";
import { projectRoot } from "../../lib/project-root";
import {
  synthPackerBuilder,
  type SynthesizedPackerBuilder,
  type TerraformJson,
} from "./synthesized-template";

// The scripts in the synthesized template are the project's .sh files: after the shebang
// come only the NAME='value' lines the template prepends, and the rest is the file with
// Terraform's template escapes ($${ and %%{) undone.

const SCRIPTS = "templates/packer-builder/scripts";

/** Where each script sits in cdk.tf.json, and the assignments the template prepends to it. */
const EMBEDDED: { file: string; names: string[]; locate(config: TerraformJson): string }[] = [
  {
    file: "clone-repository.sh",
    names: ["CLONE_REPO_URL", "CLONE_DIR", "CLONE_TIMEOUT"],
    locate: (c) => c.resource.coder_script.clone_repository.script,
  },
  {
    file: "sweep-build-vms.sh",
    names: ["SWEEP_WORKSPACE", "SWEEP_NAMESPACE", "SWEEP_KUBECONFIG", "SWEEP_TIMEOUT"],
    locate: (c) => c.resource.coder_script.sweep_build_vms.script,
  },
  {
    file: "bootstrap.sh",
    names: [
      "BOOTSTRAP_CA_URL",
      "BOOTSTRAP_PACKER_PLUGIN_PATH",
      "BOOTSTRAP_PACKER_PLUGIN_SOURCE",
      "BOOTSTRAP_AGENT_INIT_SCRIPT",
    ],
    locate: (c) =>
      c.resource.kubernetes_deployment_v1.main.spec.template.spec.container[0].command[2],
  },
];

/** A Terraform template string's literal text: `$${` → `${`, `%%{` → `%{`. */
function unescapeTemplate(text: string): string {
  return text.replace(/\$\$\{/g, "${").replace(/%%\{/g, "%{");
}

describe("packer-builder embedded scripts", () => {
  let template: SynthesizedPackerBuilder;
  beforeAll(() => (template = synthPackerBuilder()));
  afterAll(() => template.cleanup());

  it.each(EMBEDDED)("embeds $file faithfully", ({ file, names, locate }) => {
    const source = readFileSync(join(projectRoot(), SCRIPTS, file), "utf8");
    const embedded: string = locate(template.config);
    const lines = embedded.split("\n");
    const [sourceShebang, ...sourceBody] = source.split("\n");

    expect(lines[0]).toBe(sourceShebang);
    const assignments = lines.slice(1, 1 + names.length);
    expect(assignments.map((line) => line.slice(0, line.indexOf("=")))).toEqual(names);
    for (const line of assignments) expect(line).toMatch(/^[A-Z_][A-Z0-9_]*='.*'$/);
    expect(unescapeTemplate(lines.slice(1 + names.length).join("\n"))).toBe(sourceBody.join("\n"));
  });

  it("leaves no unescaped shell expansion for Terraform to evaluate", () => {
    for (const { names, locate } of EMBEDDED) {
      const body = locate(template.config)
        .split("\n")
        .slice(1 + names.length)
        .join("\n");
      expect(body).not.toMatch(/(^|[^$])\$\{/);
      expect(body).not.toMatch(/(^|[^%])%\{/);
    }
  });
});

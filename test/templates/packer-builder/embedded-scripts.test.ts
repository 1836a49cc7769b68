import { readFileSync } from "fs";
import { join } from "path";
import { projectRoot } from "../../../lib/core/project-root";
import {
  synthPackerBuilder,
  type SynthesizedPackerBuilder,
  type TerraformJson,
} from "./synthesized-template";
import { fromTemplateDir, withShippedFiles } from "../../support/shipped-scripts";

// The scripts in the synthesized template are the project's .sh files, shipped unchanged in
// its scripts/ folder: the attribute holds the #! line, the NAME='value' lines the template
// prepends, and a file() read of the rest of the file.

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
      "BOOTSTRAP_CA_SHA256",
      "BOOTSTRAP_PACKER_PLUGIN_PATH",
      "BOOTSTRAP_PACKER_PLUGIN_SOURCE",
      "BOOTSTRAP_AGENT_INIT_SCRIPT",
    ],
    locate: (c) =>
      c.resource.kubernetes_deployment_v1.main.spec.template.spec.container[0].command[2],
  },
];

describe("packer-builder embedded scripts", () => {
  let template: SynthesizedPackerBuilder;
  beforeAll(() => (template = synthPackerBuilder()));
  afterAll(() => template.cleanup());

  it.each(EMBEDDED)("embeds $file faithfully", ({ file, names, locate }) => {
    const source = readFileSync(join(projectRoot(), SCRIPTS, file), "utf8");
    const embedded: string = locate(template.config);
    const lines = withShippedFiles(embedded, fromTemplateDir(template.dir)).split("\n");
    const [sourceShebang, ...sourceBody] = source.split("\n");

    expect(lines[0]).toBe(sourceShebang);
    const assignments = lines.slice(1, 1 + names.length);
    expect(assignments.map((line) => line.slice(0, line.indexOf("=")))).toEqual(names);
    for (const line of assignments) expect(line).toMatch(/^[A-Z_][A-Z0-9_]*='.*'$/);
    expect(lines.slice(1 + names.length).join("\n")).toBe(sourceBody.join("\n"));
  });

  it.each(EMBEDDED)(
    "ships $file unchanged and reads it after the assignments",
    ({ file, names, locate }) => {
      const source = readFileSync(join(projectRoot(), SCRIPTS, file), "utf8");
      expect(readFileSync(join(template.dir, "scripts", file), "utf8")).toBe(source);
      const lines = locate(template.config).split("\n");
      expect(lines).toHaveLength(names.length + 2);
      expect(lines.at(-1)).toBe(
        `\${trimprefix(file("\${path.module}/scripts/${file}"), ${JSON.stringify(`${lines[0]}\n`)})}`,
      );
    },
  );
});

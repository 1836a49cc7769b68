import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { projectRoot } from "../../../lib/core/project-root";
import { REGENERATE_COMMAND } from "../../../app/provisioner-docs";
import { formatProvisionerTags } from "../../../app/provisioner-tags";
import { TEMPLATES } from "../../../app/registry";
import { generateProvisionerDocs, PROVISIONER_DOCS_FILE } from "../../../app/provisioner-docs-file";
import { taggedTemplate } from "./tagged-template";

// docs/provisioners.md is generated from the template registry; it must match it.

describe("docs/provisioners.md", () => {
  let generated: string;
  beforeAll(() => {
    generated = generateProvisionerDocs();
  });

  it(`is up to date (run \`${REGENERATE_COMMAND}\` when this fails)`, () => {
    const checkedIn = fs.readFileSync(path.join(projectRoot(), PROVISIONER_DOCS_FILE), "utf8");
    expect(checkedIn).toBe(generated);
  });

  it.each(TEMPLATES.map((t) => [t.id, t] as const))(
    "states the static tags %s is pushed with",
    (id, definition) => {
      const tags = definition.provisioners?.tags ?? {};
      const row = generated.split("\n").find((l) => l.startsWith(`| \`${id}\` `));
      expect(row).toBeDefined();
      const cell =
        Object.keys(tags).length === 0 ? "untagged" : `\`${formatProvisionerTags(tags)}\``;
      expect(row?.split("|")[2].trim()).toBe(cell);
    },
  );

  it("gives the packer-builder provisioners the Harvester kubeconfig mount and tag", () => {
    const section = generated.slice(generated.indexOf("### `cluster=harvester`"));
    expect(section).toContain("--tag cluster=harvester");
    expect(section).toContain("mountPath: /kubeconfig.yaml");
    expect(section).toMatch(/tags:\n {4}cluster: "harvester"/);
  });
});

describe("the page for a template with per-workspace tags", () => {
  const page = generateProvisionerDocs([...TEMPLATES.slice(0, 1), taggedTemplate()]);

  it("lists the tags and where their values come from", () => {
    expect(page).toMatch(
      /\| `tagged` \(Tagged\) +\| `cluster=edge` +\| `pool`, `region`, `team` +\|/,
    );
    expect(page).toContain("- `pool`: the template variable `pool`");
    expect(page).toContain("- `region`: the immutable parameter `region` (default `eu-west`)");
    expect(page).toContain("- `team`: always `platform ${not-interpolated}`");
  });

  it("is formatted as Prettier formats Markdown, so format:check accepts generated pages", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "docs-")), "provisioners.md");
    fs.writeFileSync(file, page);
    const prettier = path.join(projectRoot(), "node_modules", ".bin", "prettier");
    const run = spawnSync(prettier, ["--check", file], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });
});

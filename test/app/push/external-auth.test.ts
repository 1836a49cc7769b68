import * as fs from "fs";
import * as path from "path";
import { projectRoot } from "../../../lib/core/project-root";
import { fakeCli, type FakeCli } from "./fake-cli";

// Since Coder 2.37 a workspace's git credentials come from the external auth providers its
// template version declares, and the devcontainer build gets the user's token only for a
// repository on external_auth_host: external_auth_id without it fails every private
// repository with no hint. Push refuses it before anything runs, wherever the values come
// from: the --variables-file, the operator configuration (coder-cdktf.jsonc), or both.

let cli: FakeCli;
beforeAll(() => {
  cli = fakeCli();
});
afterAll(() => cli.cleanup());

const REQUIRED =
  "namespace: coder-workspaces\ndevcontainer_builder_endpoint: https://builder.example.com\n";

function file(name: string, text: string): string {
  const p = path.join(cli.work, name);
  fs.writeFileSync(p, text);
  return p;
}

const MISSING_HOST =
  'external_auth_id (set in %s) must be "" unless external_auth_host is set too, to the host of that provider (e.g. github.com): ' +
  "without it the user's token is never sent to the image build and private repositories fail";

describe("push refuses external_auth_id without external_auth_host", () => {
  it("from the variables file, naming the missing variable, and runs no coder command", () => {
    const vars = file("id-only.yaml", `${REQUIRED}external_auth_id: github\n`);
    for (const dry of [[], ["--dry-run"]]) {
      const run = cli.run("push", `file-id-only${dry.length}`, [
        "devcontainer",
        "--variables-file",
        vars,
        ...dry,
      ]);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(`push: devcontainer: ${MISSING_HOST.replace("%s", vars)}.`);
      expect(run.stderr).toContain("under templates.devcontainer.variables in coder-cdktf.jsonc");
      expect(run.logExists()).toBe(false);
      expect(run.stdout).toBe("");
    }
  });

  it("from the operator configuration, at the value's position, and runs no coder command", () => {
    const config = file(
      "id-only.jsonc",
      '{ "templates": { "devcontainer": { "variables": {\n  "external_auth_id": "github" } } } }\n',
    );
    const run = cli.run("push", "config-id-only", [
      "devcontainer",
      "--config",
      config,
      "--variables-file",
      file("required.yaml", REQUIRED),
    ]);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(
      `${config}:2:23: templates.devcontainer.variables.external_auth_id: "github" is not allowed; ` +
        'external_auth_id must be "" unless external_auth_host is set too',
    );
    expect(run.logExists()).toBe(false);
  });

  it("an empty external_auth_host in the file counts as missing", () => {
    const vars = file(
      "empty-host.yaml",
      `${REQUIRED}external_auth_id: github\nexternal_auth_host: ""\n`,
    );
    const run = cli.run("push", "file-empty-host", ["devcontainer", "--variables-file", vars]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("unless external_auth_host is set too");
    expect(run.logExists()).toBe(false);
  });
});

describe("push goes on with both set", () => {
  it("in the variables file", () => {
    const vars = file(
      "both.yaml",
      `${REQUIRED}external_auth_id: github\nexternal_auth_host: github.com\n`,
    );
    const run = cli.run("push", "file-both", ["devcontainer", "--variables-file", vars]);
    expect(run.stderr).not.toContain("external_auth_host is set too");
    expect(run.status).toBe(0);
    expect(run.calls()[1].args).toEqual(
      expect.arrayContaining(["templates", "push", "devcontainer", "--variables-file", vars]),
    );
  });

  it("in the configuration, or the id there and the host in the file", () => {
    const config = file(
      "both.jsonc",
      '{ "templates": { "devcontainer": { "variables": { "external_auth_id": "github", "external_auth_host": "github.com" } } } }\n',
    );
    const run = cli.run("push", "config-both", [
      "devcontainer",
      "--config",
      config,
      "--variables-file",
      file("required-2.yaml", REQUIRED),
    ]);
    expect(run.status).toBe(0);
    expect(run.calls()[1].args).toEqual(
      expect.arrayContaining([
        "--var",
        "external_auth_host=github.com",
        "--var",
        "external_auth_id=github",
      ]),
    );
    // The file's host wins over the configuration's (file > configuration), and still counts.
    const host = cli.run("push", "config-id-file-host", [
      "devcontainer",
      "--config",
      config,
      "--variables-file",
      file("host.yaml", `${REQUIRED}external_auth_host: git.example.com\n`),
    ]);
    expect(host.status).toBe(0);
  });

  it("with the variables of templates/devcontainer/README.md's own example, as written", () => {
    const readme = fs.readFileSync(
      path.join(projectRoot(), "templates", "devcontainer", "README.md"),
      "utf8",
    );
    const example = /```sh\n(coder templates push devcontainer[\s\S]*?)```/.exec(readme)![1];
    const vars = [...example.matchAll(/--var (\w+)=(\S+)/g)].map(([, name, value]) => [
      name,
      value,
    ]);
    expect(vars.map(([name]) => name)).toContain("external_auth_id");
    const yaml = file("readme.yaml", vars.map(([n, v]) => `${n}: ${v}\n`).join(""));
    const run = cli.run("push", "readme-example", ["devcontainer", "--variables-file", yaml]);
    expect(run.stderr).not.toContain("must be");
    expect(run.status).toBe(0);
  });
});

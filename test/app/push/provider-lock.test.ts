import * as fs from "fs";
import * as path from "path";
import { writeProviderMirror, h1Hash, type MirroredPackage } from "../../support/provider-mirror";
import { fakeCli, SHA, type FakeCli } from "./fake-cli";

// `npm run push` writes .terraform.lock.hcl into the folder it pushes, so Coder caches the
// providers per template version (coder/coder #7316), with the real `terraform providers
// lock`, offline: over a mirror of fake provider archives this test makes (-fs-mirror), or
// against a registry it cannot reach (fake-cli.ts: HTTPS_PROXY on a closed port).

let cli: FakeCli;
let mirror: string;
/** The h1: checksum of each mirrored archive, by `provider version platform`. */
const hashes = new Map<string, string>();

const PLATFORMS = ["linux_amd64", "linux_arm64"];
/** Versions in the mirror: some outside the templates' bounds, which the lock must not pick. */
const MIRRORED: Record<string, string[]> = {
  "coder/coder": ["2.8.0", "2.17.0", "2.19.0"],
  "hashicorp/kubernetes": ["2.38.0", "4.0.0"],
};

beforeAll(() => {
  cli = fakeCli();
  mirror = path.join(cli.work, "mirror");
  const packages: MirroredPackage[] = Object.entries(MIRRORED).flatMap(([provider, versions]) =>
    versions.flatMap((version) => PLATFORMS.map((platform) => ({ provider, version, platform }))),
  );
  writeProviderMirror(mirror, packages).forEach((contents, i) => {
    const { provider, version, platform } = packages[i];
    hashes.set(`${provider} ${version} ${platform}`, h1Hash([contents]));
  });
});

afterAll(() => cli.cleanup());

/** The lock file's block for one provider, as Terraform writes it. */
function lockBlock(provider: string, version: string, constraints: string): string {
  const lines = PLATFORMS.map((p) => hashes.get(`${provider} ${version} ${p}`)!)
    .sort()
    .map((h) => `    "${h}",\n`)
    .join("");
  return (
    `provider "registry.terraform.io/${provider}" {\n` +
    `  version     = "${version}"\n` +
    `  constraints = "${constraints}"\n` +
    `  hashes = [\n${lines}  ]\n}\n`
  );
}

/** The template's required_providers bounds, as synthesized. */
function bounds(stack: string): Record<string, { source: string; version: string }> {
  const json = JSON.parse(fs.readFileSync(path.join(stack, "cdk.tf.json"), "utf8"));
  return json.terraform.required_providers;
}

describe("npm run push locks the providers", () => {
  const pinConfig = (name: string, pins: Record<string, string>): string => {
    const file = path.join(cli.work, `${name}.jsonc`);
    fs.writeFileSync(
      file,
      `{\n  "templates": {\n    "kubernetes": {\n      "providers": ${JSON.stringify(pins)},\n` +
        `      "variables": { "namespace": "coder-workspaces" }\n    }\n  }\n}\n`,
    );
    return file;
  };

  it("locks the release an operator pins in coder-cdktf.jsonc, inside the bounds", () => {
    const config = pinConfig("pinned", { coder: "2.17.0" });
    const run = cli.run("push", "pinned", [
      "kubernetes",
      "--providers-mirror",
      mirror,
      "--config",
      config,
    ]);
    expect(run.stderr).not.toContain("push failed");
    expect(run.status).toBe(0);
    const stack = path.join(run.outdir, "stacks", "kubernetes");
    const lock = fs.readFileSync(path.join(stack, ".terraform.lock.hcl"), "utf8");
    expect(lock).toContain(lockBlock("coder/coder", "2.17.0", "2.17.0"));
    expect(lock).toContain(
      'provider "registry.terraform.io/hashicorp/kubernetes" {\n  version     = "2.38.0"',
    );
  });

  it("fails before anything runs when a pinned release is outside the template's bound, naming where", () => {
    const config = pinConfig("outside", { coder: "2.8.0" });
    const run = cli.run("push", "outside", [
      "kubernetes",
      "--providers-mirror",
      mirror,
      "--config",
      config,
    ]);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(
      /outside\.jsonc:4:29: templates\.kubernetes\.providers\.coder: 2\.8\.0 is outside the template's bound ">= 2\.9\.0"/,
    );
    // No coder command ran: not even `coder version`.
    expect(run.logExists()).toBe(false);
  });

  it("writes .terraform.lock.hcl for both platforms with the newest versions the bounds admit, and pushes it without --ignore-lockfile", () => {
    const run = cli.run("push", "locked", ["kubernetes", "--providers-mirror", mirror]);
    expect(run.stderr).not.toContain("push failed");
    expect(run.status).toBe(0);
    const stack = path.join(run.outdir, "stacks", "kubernetes");
    const required = bounds(stack);
    const lock = fs.readFileSync(path.join(stack, ".terraform.lock.hcl"), "utf8");
    expect(lock).toBe(
      '# This file is maintained automatically by "terraform init".\n' +
        "# Manual edits may be lost in future updates.\n\n" +
        lockBlock("coder/coder", "2.19.0", required.coder.version) +
        "\n" +
        lockBlock("hashicorp/kubernetes", "2.38.0", required.kubernetes.version),
    );
    expect(run.stderr).toContain(
      "locked registry.terraform.io/coder/coder, registry.terraform.io/hashicorp/kubernetes " +
        `for linux_amd64 and linux_arm64 in ${stack}/.terraform.lock.hcl`,
    );
    const [version, push, edit, ...rest] = run.calls();
    expect(rest).toEqual([]);
    expect(version.args).toEqual(["version"]);
    expect(push.args).toEqual([
      "templates",
      "push",
      "kubernetes",
      "-d",
      stack,
      "--yes",
      "--provisioner-tag=-",
      "--var",
      "namespace=coder-workspaces",
      "--name",
      SHA,
      "-m",
      expect.any(String),
    ]);
    // Coder uploads the lock file with the template, and nothing else hidden (no .terraform/).
    expect(push.files.filter((f) => f.startsWith("."))).toEqual([".terraform.lock.hcl"]);
    expect(edit.args.slice(0, 3)).toEqual(["templates", "edit", "kubernetes"]);
    expect(run.stderr).not.toContain("--ignore-lockfile");
  });

  it("leaves the devcontainer-builder provider, which is on no public registry, out of the lock and says so", () => {
    const vars = path.join(cli.work, "devcontainer.yaml");
    fs.writeFileSync(
      vars,
      "namespace: coder-workspaces\ndevcontainer_builder_endpoint: https://builder.example.com\n",
    );
    const run = cli.run("push", "devcontainer-locked", [
      "devcontainer",
      "--variables-file",
      vars,
      "--providers-mirror",
      mirror,
    ]);
    expect(run.status).toBe(0);
    const stack = path.join(run.outdir, "stacks", "devcontainer");
    const required = bounds(stack);
    expect(required.devcontainerbuilder.source).toBe("deepspacecartel/devcontainer-builder");
    const lock = fs.readFileSync(path.join(stack, ".terraform.lock.hcl"), "utf8");
    expect(lock).toContain(lockBlock("coder/coder", "2.19.0", required.coder.version));
    expect(lock).toContain(
      lockBlock("hashicorp/kubernetes", "2.38.0", required.kubernetes.version),
    );
    expect(lock).not.toContain("devcontainer-builder");
    expect(run.stderr).toContain(
      "note: registry.terraform.io/deepspacecartel/devcontainer-builder is left out of .terraform.lock.hcl: " +
        "the devcontainer-builder provider is installed on the provisioners by the operator",
    );
    expect(run.calls()[1].args).not.toContain("--ignore-lockfile");
  });

  it("says in one line that the registry cannot be reached, and pushes as before with --ignore-lockfile", () => {
    const run = cli.run("push", "unreachable", ["kubernetes"]);
    expect(run.status).toBe(0);
    const stack = path.join(run.outdir, "stacks", "kubernetes");
    expect(fs.existsSync(path.join(stack, ".terraform.lock.hcl"))).toBe(false);
    const lockLines = run.stderr
      .split("\n")
      .filter((l) => /lock/i.test(l) && !/^running: /.test(l));
    expect(lockLines).toEqual([
      "note: the registry registry.terraform.io could not be reached: kubernetes's providers are not locked, " +
        "so --ignore-lockfile is passed and Coder's provisioners download them on each build " +
        "(--providers-mirror <folder or https URL> locks them from a mirror)",
    ]);
    const push = run.calls()[1];
    expect(push.args.slice(0, 2)).toEqual(["templates", "push"]);
    expect(push.args.at(-1)).toBe("--ignore-lockfile");
    expect(push.files.some((f) => f.startsWith("."))).toBe(false);
  });

  it("--dry-run prints the lock command before the coder commands, and runs and writes nothing", () => {
    const run = cli.run("push", "dry-locked", [
      "kubernetes",
      "--dry-run",
      "--providers-mirror",
      mirror,
    ]);
    expect(run.status).toBe(0);
    expect(run.calls().map((c) => c.args)).toEqual([["version"]]);
    const stack = path.join(run.outdir, "stacks", "kubernetes");
    const [lock, push] = run.stdout.split("\n");
    expect(lock).toBe(
      `terraform providers lock -fs-mirror=${mirror} -platform=linux_amd64 -platform=linux_arm64 ` +
        "registry.terraform.io/coder/coder registry.terraform.io/hashicorp/kubernetes",
    );
    expect(push).toMatch(new RegExp(`^coder templates push kubernetes -d ${stack} `));
    expect(push).not.toContain("--ignore-lockfile");
    expect(fs.existsSync(path.join(stack, ".terraform.lock.hcl"))).toBe(false);
    expect(run.stderr).toContain("if it fails, push passes --ignore-lockfile");
  });

  it("refuses a mirror folder that does not exist before running anything", () => {
    const run = cli.run("push", "no-mirror", ["kubernetes", "--providers-mirror", "nowhere"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("--providers-mirror nowhere: no such folder");
    expect(run.logExists()).toBe(false);
  });
});

/**
 * Warnings and variable checks (spec §13) planned by real Terraform; the variables
 * metadata script is then run with sh.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, TerraformOutput, TerraformStack, TerraformVariable } from "../../lib/core/cdk";
import { DevcontainerWarnings, WARNINGS_HEADING } from "../../lib/devcontainer/warnings";
import { type ExpressionPlan, planExpressions } from "@coder-cdktf/terraform-harness";
import { itWithShellcheck } from "../support/shellcheck";

interface WarningsCase {
  readonly service?: unknown;
  readonly configuration?: unknown;
  readonly resource?: unknown;
  readonly placement?: unknown;
  readonly mount?: unknown;
  readonly capability?: unknown;
  readonly uid?: unknown;
  readonly variables?: unknown;
  readonly variablesText?: string | null;
}

const VARIABLES = [
  { kind: "localEnv", name: "API_TOKEN", default: null, used_in: ["containerEnv.API_TOKEN"] },
  { kind: "localEnv", name: "WITH_DEFAULT", default: "x", used_in: ["remoteEnv.X"] },
  { kind: "localEnv", name: "MOUNT_ONLY", default: null, used_in: ["mounts[0].source"] },
  { kind: "containerEnv", name: "PATH", default: null, used_in: ["remoteEnv.PATH"] },
  { kind: "localEnv", name: "bad-name", default: null, used_in: ["postCreateCommand"] },
  {
    kind: "localEnv",
    name: "USER_NAME",
    default: null,
    used_in: ["postCreateCommand", "mounts[1].source"],
  },
  { kind: "localEnv", name: "API_TOKEN", default: null, used_in: ["postStartCommand"] },
  { kind: "localEnv", name: "NO_USES", default: null, used_in: null },
];

const CASES: WarningsCase[] = [
  // 0: every source, some null or empty, all inputs sensitive
  {
    service: ["bind mount /var/run/docker.sock is not supported", ""],
    configuration: ["c1"],
    resource: ["r1"],
    placement: [],
    mount: ["m1"],
    capability: null,
    uid: ["u1"],
    variables: VARIABLES,
    variablesText: "# tokens\nAPI_TOKEN=\nUSER_NAME=alice-secret-value\n",
  },
  // 1: stopped workspace: the data source is absent
  { service: null, variables: null, variablesText: "" },
  // 2: nothing to report, all variables set
  { service: [], variables: VARIABLES, variablesText: "API_TOKEN=t0ken\nUSER_NAME=bob" },
];

function buildStack(outdir: string): { stack: TerraformStack; variables: Record<string, unknown> } {
  const stack = new TerraformStack(new App({ outdir }), "warnings");
  const variables: Record<string, unknown> = {};
  CASES.forEach((c, index) => {
    const p = `c${index}_`;
    // Everything that comes from the data source or the parameter is marked sensitive here,
    // the worst case: the construct must still give plain values.
    const input = (name: string, value: unknown) => {
      variables[`${p}${name}`] = value ?? null;
      return new TerraformVariable(stack, `${p}${name}`, { type: "any", sensitive: true }).value;
    };
    const warnings = new DevcontainerWarnings(stack, `${p}warnings`, {
      serviceWarnings: input("service", c.service),
      configurationWarnings: input("configuration", c.configuration ?? []),
      resourceWarnings: input("resource", c.resource ?? []),
      placementWarnings: input("placement", c.placement ?? []),
      mountWarnings: input("mount", c.mount ?? []),
      capabilityWarnings: input("capability", c.capability ?? []),
      uidWarnings: input("uid", c.uid ?? []),
      variables: input("variables", c.variables),
      variablesText: input("variables_text", c.variablesText),
      localPrefix: p,
    });
    const outputs: Record<string, unknown> = {
      all_warnings: warnings.allWarnings,
      warnings_status: warnings.warningsStatus,
      warnings_script: warnings.warningsMetadataScript,
      required: warnings.requiredVariables,
      missing: warnings.missingVariables,
      variables_script: warnings.variablesMetadataScript,
    };
    for (const [name, value] of Object.entries(outputs)) {
      new TerraformOutput(stack, `${p}output_${name}`, { value }).overrideLogicalId(`${p}${name}`);
    }
  });
  return { stack, variables };
}

function runScript(script: string, env: Record<string, string> = {}): string {
  return execFileSync("sh", ["-c", script], { env: { PATH: process.env.PATH ?? "", ...env } })
    .toString()
    .trimEnd();
}

/** What the variables item tells a user after the unset names (variables-metadata.sh). */
const HOW_TO_SET =
  "A secret: coder secret create <name> --env NAME (or Secrets in your account); " +
  "else a NAME=value line in Dev Container variables. Then restart.";

describe("DevcontainerWarnings (planned)", () => {
  let plan: ExpressionPlan;
  let outdir: string;
  const value = (index: number, name: string) => plan.values[`c${index}_${name}`];

  beforeAll(async () => {
    outdir = mkdtempSync(join(tmpdir(), "warnings-test-"));
    const { stack, variables } = buildStack(outdir);
    plan = await planExpressions(stack, variables);
  });
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it("combines the warning lists in order, skipping empty lines, without the sensitive mark", () => {
    expect(value(0, "all_warnings")).toEqual([
      "bind mount /var/run/docker.sock is not supported",
      "c1",
      "r1",
      "m1",
      "u1",
    ]);
    expect(plan.outputs.c0_all_warnings.sensitive).toBe(false);
    expect(value(0, "warnings_status")).toBe("5 - see the build log");
    expect(runScript(value(0, "warnings_script") as string)).toBe("5 - see the build log");
  });

  it("reports none for a stopped workspace and for a clean one", () => {
    for (const index of [1, 2]) {
      expect(value(index, "all_warnings")).toEqual([]);
      expect(value(index, "warnings_status")).toBe("none");
      expect(runScript(value(index, "warnings_script") as string)).toBe("none");
    }
  });

  it("lists the warnings in the build log through a failing check block", () => {
    expect(plan.checkFailures).toContain(
      `${WARNINGS_HEADING}\n` +
        "- bind mount /var/run/docker.sock is not supported\n- c1\n- r1\n- m1\n- u1",
    );
  });

  it("requires localEnv variables without default used outside mounts, once each", () => {
    expect(value(0, "required")).toEqual(["API_TOKEN", "USER_NAME"]);
    expect(plan.outputs.c0_required.sensitive).toBe(false);
    expect(value(1, "required")).toEqual([]);
  });

  it("counts a variable as missing without a NAME= line with a value", () => {
    expect(value(0, "missing")).toEqual(["API_TOKEN"]);
    expect(plan.outputs.c0_missing.sensitive).toBe(false);
    expect(value(2, "missing")).toEqual([]);
  });

  it("names the missing variables in a check message that never shows the parameter text", () => {
    expect(plan.checkFailures).toContain(
      "Dev Container variables not set here: API_TOKEN. The repository's devcontainer.json uses them as " +
        "${localEnv:NAME}. A secret value belongs in your own Coder user secret (coder secret create " +
        "<name> --env NAME, or Secrets in your account settings), which the workspace uses at start " +
        "and this check cannot see; any other value is a NAME=value line in the workspace's \"Dev " +
        'Container variables" setting. Then restart the workspace.',
    );
    // Only the two failing checks of case 0 fail.
    expect(plan.checkFailures).toHaveLength(2);
    const everything = JSON.stringify(plan.warnings);
    expect(everything).not.toContain("alice-secret-value");
  });

  it("runs the shipped variables-metadata.sh after its header, byte for byte", () => {
    // The bytes the agent ran when the script was a string in locals.tf: shipping it as a
    // file (templates/devcontainer/scripts/variables-metadata.sh) must not change them.
    const body = [
      "unset_names=''",
      "for name in $names; do",
      '  eval "value=\\${$name:-\\${DEVCONTAINER_LOCALENV_$name:-}}"',
      '  [ -n "$value" ] || unset_names="$unset_names${unset_names:+, }$name"',
      "done",
      'if [ -z "$unset_names" ]; then',
      '  echo "all set"',
      "else",
      `  echo "unset: $unset_names. ${HOW_TO_SET}"`,
      "fi",
    ].join("\n");
    expect(value(0, "variables_script")).toBe(`names='API_TOKEN USER_NAME'\n${body}`);
    expect(value(1, "variables_script")).toBe(`names=''\n${body}`);
  });

  it("gives a variables metadata script that reports unset names or all set", () => {
    const script = value(0, "variables_script") as string;
    expect(script.split("\n")[0]).toBe("names='API_TOKEN USER_NAME'");
    expect(runScript(script)).toBe(`unset: API_TOKEN, USER_NAME. ${HOW_TO_SET}`);
    expect(runScript(script, { DEVCONTAINER_LOCALENV_USER_NAME: "alice" })).toBe(
      `unset: API_TOKEN. ${HOW_TO_SET}`,
    );
    // The user's own Coder secret, which the agent puts into the script's environment.
    expect(runScript(script, { API_TOKEN: "t", USER_NAME: "u" })).toBe("all set");
    expect(
      runScript(script, {
        DEVCONTAINER_LOCALENV_USER_NAME: "a",
        DEVCONTAINER_LOCALENV_API_TOKEN: "t",
      }),
    ).toBe("all set");
    expect(runScript(value(1, "variables_script") as string)).toBe("all set");
  });

  itWithShellcheck("gives metadata scripts that pass shellcheck", () => {
    for (const name of ["variables_script", "warnings_script"]) {
      const file = join(outdir, `${name}.sh`);
      writeFileSync(file, value(0, name) as string);
      expect(() => execFileSync("shellcheck", ["--shell=sh", file])).not.toThrow();
    }
  });
});

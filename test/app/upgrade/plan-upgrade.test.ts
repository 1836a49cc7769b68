/**
 * app/upgrade: today's templates planned on the applied states of their release at
 * STATES_COMMIT (test/upgrade/states/, regenerate.ts), with real Terraform against the mock
 * providers, which ask for replacement where the real providers do. The ordinary upgrade
 * keeps every volume and identity; deliberate breaking changes (a storage class, a selector
 * label, a renamed claim, a renamed service account) are caught and named.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { TerraformHarness } from "@coder-cdktf/terraform-harness";
import { TerraformResource, type IConstruct } from "../../../lib/core/cdk";
import { movedFrom } from "../../../lib/core/moved";
import { TEMPLATES, type TemplateDefinition } from "../../../app/registry";
import { synthTemplates } from "../../../app/synth";
import {
  planUpgrade,
  type UpgradeReport,
  type WorkspaceUpgrade,
} from "../../../app/upgrade/plan-upgrade";
import { exitStatus, EXIT_DATA_LOSS, renderUpgradeText } from "../../../app/upgrade/render-upgrade";
import { readWorkspaceState, StateError } from "../../../app/upgrade/workspace-state";
import { TEMPLATE_INPUTS } from "../../prebuilds/template-inputs";
import { synthTemplate } from "../../support/synth-template";
import { STATE_CASES, STATES_COMMIT, stateFile } from "../../upgrade/states/state-cases";

jest.setTimeout(180_000);

const outdirs: string[] = [];
let harness: TerraformHarness;
beforeAll(async () => (harness = await TerraformHarness.start()));
afterAll(async () => {
  await harness.stop();
  for (const d of outdirs) fs.rmSync(d, { recursive: true, force: true });
});

const variablesOf = (template: string) =>
  TEMPLATE_INPUTS.find((t) => t.id === template)!.options.variables ?? {};

const savedState = (name: string) => ({
  source: `${name}.tfstate.json`,
  read: async () => fs.readFileSync(stateFile(name), "utf8"),
});

/** Plans the template in `dir` (Coder name `template`) on the saved states `names`. */
function plan(template: string, dir: string, names: readonly string[]): Promise<UpgradeReport> {
  return planUpgrade({ dir, name: template }, names.map(savedState), {
    variables: variablesOf(template),
    harness,
  });
}

function planned(report: UpgradeReport, i = 0): Exclude<WorkspaceUpgrade, { error: string }> {
  const w = report.workspaces[i];
  if ("error" in w) throw new Error(`${w.workspace} was not planned: ${w.error}`);
  return w;
}

/**
 * Today's template `id` with `change` made to its stack before synthesis: a deliberate
 * breaking change as a developer would make it in the constructs.
 */
function changedTemplate(id: string, change: (stack: IConstruct) => void): string {
  const base = TEMPLATES.find((t) => t.id === id)!;
  const variant: TemplateDefinition = {
    ...base,
    create: (scope, settings) => {
      const stack = base.create(scope, settings);
      change(stack);
      return stack;
    },
  };
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "upgrade-variant-"));
  outdirs.push(outdir);
  const [t] = synthTemplates({ outdir, only: [id], templates: [variant] });
  return t.dir;
}

function resource(stack: IConstruct, type: string, name?: string): TerraformResource {
  const found = stack.node
    .findAll()
    .filter(
      (c): c is TerraformResource =>
        c instanceof TerraformResource &&
        c.terraformResourceType === type &&
        (name === undefined || c.node.id === name),
    );
  if (found.length !== 1) throw new Error(`${found.length} resources of type ${type}`);
  return found[0];
}

describe(`the ordinary upgrade from ${STATES_COMMIT} to today`, () => {
  /** What each saved workspace's next start does, as planned. */
  const EXPECTED: Record<string, { outcome: string; changes: string[]; accessLoss?: string[] }> = {
    // No pod mounts a ServiceAccount token any more (issue 32 item 5): the pod restarts.
    kubernetes: {
      outcome: "restarted",
      changes: ["restarted kubernetes_deployment_v1.main[0]"],
    },
    // Stopped: its start creates the pod, as every start does.
    "kubernetes-stopped": { outcome: "nothing", changes: [] },
    // The lifecycle scripts changed since (b53994a, 756d7d2, fff0d67, waitFor): the pod's
    // command carries them. The agent's metadata gained the background lifecycle's state and
    // the claim's own size (issues 34 and 32.3), which replaces the agent and so every record
    // bound to its id. The git identity now comes from the git-config module, so the
    // template's own four coder_env records go. All Coder records: no data.
    devcontainer: {
      outcome: "destroyed",
      changes: [
        "replaced coder_agent.main",
        ...Array.from({ length: 10 }, (_, i) => `replaced coder_app.forwarded_port[${i}]`),
        "replaced coder_env.devcontainer_branch",
        "replaced coder_env.devcontainer_image_commit",
        "replaced coder_env.devcontainer_rebuild",
        "destroyed coder_env.git_author_email[0]",
        "destroyed coder_env.git_author_name[0]",
        "destroyed coder_env.git_committer_email[0]",
        "destroyed coder_env.git_committer_name[0]",
        // The row naming the build's git credential (issue 43.1).
        "updated coder_metadata.pod_info[0]",
        "replaced coder_script.devcontainer_lifecycle[0]",
        "replaced coder_script.devcontainer_post_attach[0]",
        "replaced coder_script.devcontainer_vscode[0]",
        "restarted kubernetes_deployment_v1.main[0]",
      ],
    },
    // The clone script changed since (b53994a, ce71965): a Coder record, replaced at no cost.
    // The long-lived token Secret and the pod's reader binding go on purpose (issue 33): the
    // next start mints a short-lived token, so the old token is revoked, an access loss the
    // report names.
    "packer-builder": {
      outcome: "destroyed",
      changes: [
        "replaced coder_script.clone_repository[0]",
        // The stop sweep deletes every kind a build makes (issue 43.9): a new script, a Coder record.
        "replaced coder_script.sweep_build_vms",
        // CODER_AGENT_TOKEN now comes from a Secret (issue 43.2): the pod restarts.
        "restarted kubernetes_deployment_v1.main[0]",
        "destroyed kubernetes_role_binding_v1.workspace_identity_packer_builder_coder_workspace_pod_reader",
        "destroyed kubernetes_secret_v1.harvester_identity_token",
        "updated kubernetes_secret_v1.packer_kubeconfig",
      ],
      accessLoss: [
        "kubernetes_role_binding_v1.workspace_identity_packer_builder_coder_workspace_pod_reader",
        "kubernetes_secret_v1.harvester_identity_token",
      ],
    },
  };

  it.each(STATE_CASES.map((c) => [c.name, c.template] as const))(
    "%s: changes no PVC, and no identity but those this round drops on purpose",
    async (name, template) => {
      const report = await plan(template, synthTemplate(template).dir, [name]);
      const w = planned(report);
      expect(w.dataLoss).toEqual([]);
      expect(w.accessLoss).toEqual(EXPECTED[name].accessLoss ?? []);
      for (const c of w.changes) {
        expect([c.address, c.type]).not.toEqual([
          c.address,
          "kubernetes_persistent_volume_claim_v1",
        ]);
        if (c.outcome === "replaced") expect(c.type).toMatch(/^coder_/);
      }
      expect(w.outcome).toBe(EXPECTED[name].outcome);
      expect(w.changes.map((c) => `${c.outcome} ${c.address}`)).toEqual(EXPECTED[name].changes);
      expect(exitStatus(report)).toBe(0);
      expect(renderUpgradeText(report)).toContain("no workspace loses data");
    },
  );

  // Issue 43.2: CODER_AGENT_TOKEN moves from a literal env value to a Secret of its own.
  it.each(STATE_CASES.filter((c) => !c.name.endsWith("-stopped")).map((c) => [c.name, c.template]))(
    "%s: the agent token's Secret is created and the Deployment updated in place; no PVC is touched",
    async (name, template) => {
      const w = planned(await plan(template, synthTemplate(template).dir, [name]));
      expect(w.created).toContain("kubernetes_secret_v1.agent_token[0]");
      const deployment = w.changes.filter((c) => c.type === "kubernetes_deployment_v1");
      expect(deployment.map((c) => `${c.outcome} ${c.address}`)).toEqual([
        "restarted kubernetes_deployment_v1.main[0]",
      ]);
      expect(deployment[0].actions).toEqual(["update"]);
      expect(deployment[0].changed.join(" ")).toMatch(/env/);
      expect(w.changes.filter((c) => c.type === "kubernetes_persistent_volume_claim_v1")).toEqual(
        [],
      );
      expect(w.dataLoss).toEqual([]);
    },
  );

  it("plans a stopped workspace's next start: it creates the pod, and that is no change", async () => {
    const report = await plan("kubernetes", synthTemplate("kubernetes").dir, [
      "kubernetes-stopped",
    ]);
    const w = planned(report);
    expect(w.stopped).toBe(true);
    expect(w.created).toContain("kubernetes_deployment_v1.main[0]");
    expect(w.workspace).toBe("bob/weekend");
  });

  it("leaves the registry modules' resources out and says so", async () => {
    const report = await plan("kubernetes", synthTemplate("kubernetes").dir, ["kubernetes"]);
    expect(planned(report).unchecked).toEqual(["module.code_server[0]"]);
    expect(planned(report).changes.filter((c) => c.address.startsWith("module."))).toEqual([]);
  });
});

describe("deliberate breaking changes are caught and named", () => {
  it("a new storage class replaces the PVC: data loss, forced by storage_class_name", async () => {
    const dir = changedTemplate("kubernetes", (stack) =>
      resource(stack, "kubernetes_persistent_volume_claim_v1").addOverride(
        "spec.storage_class_name",
        "fast-ssd",
      ),
    );
    const report = await plan("kubernetes", dir, ["kubernetes"]);
    const w = planned(report);
    expect(w.outcome).toBe("replaced");
    expect(w.dataLoss).toEqual(["kubernetes_persistent_volume_claim_v1.home"]);
    expect(
      w.changes.find((c) => c.address === "kubernetes_persistent_volume_claim_v1.home"),
    ).toMatchObject({
      outcome: "replaced",
      forcedBy: ["spec.0.storage_class_name"],
      loses: "data",
    });
    expect(exitStatus(report)).toBe(EXIT_DATA_LOSS);
    const text = renderUpgradeText(report);
    expect(text).toMatch(
      /replaced\s+kubernetes_persistent_volume_claim_v1\.home forced by spec\.0\.storage_class_name\s+DATA LOSS/,
    );
    expect(text).toContain("DATA LOSS in 1: alice/dev");
  });

  it("a label added to the Deployment's selector replaces the Deployment (the pod restarts), not the PVC", async () => {
    const dir = changedTemplate("kubernetes", (stack) => {
      const deployment = resource(stack, "kubernetes_deployment_v1");
      deployment.addOverride("spec.selector.match_labels.team", "platform");
      deployment.addOverride("spec.template.metadata.labels.team", "platform");
    });
    const w = planned(await plan("kubernetes", dir, ["kubernetes"]));
    expect(w.outcome).toBe("replaced");
    expect(w.changes.find((c) => c.address === "kubernetes_deployment_v1.main[0]")).toMatchObject({
      outcome: "replaced",
      forcedBy: ["spec.0.selector"],
    });
    expect(w.dataLoss).toEqual([]);
  });

  it("a claim renamed without `moved` destroys the old one; with `moved` nothing happens", async () => {
    // The release called the claim `home_v1`; today's template calls it `home`.
    const state = JSON.parse(fs.readFileSync(stateFile("kubernetes"), "utf8"));
    for (const r of state.resources)
      if (r.type === "kubernetes_persistent_volume_claim_v1") r.name = "home_v1";
    const renamedState = {
      source: "renamed.tfstate.json",
      read: async () => JSON.stringify(state),
    };
    const report = await planUpgrade(
      { dir: synthTemplate("kubernetes").dir, name: "kubernetes" },
      [renamedState],
      { variables: variablesOf("kubernetes"), harness },
    );
    const w = planned(report);
    expect(w.outcome).toBe("destroyed");
    expect(
      w.changes.find((c) => c.address === "kubernetes_persistent_volume_claim_v1.home_v1"),
    ).toMatchObject({
      outcome: "destroyed",
      reason: expect.stringContaining("no longer in the configuration"),
      loses: "data",
    });
    expect(w.dataLoss).toEqual(["kubernetes_persistent_volume_claim_v1.home_v1"]);
    expect(w.created).toContain("kubernetes_persistent_volume_claim_v1.home");
    expect(exitStatus(report)).toBe(EXIT_DATA_LOSS);
    expect(renderUpgradeText(report)).toMatch(
      /destroyed\s+kubernetes_persistent_volume_claim_v1\.home_v1 \(no longer in the configuration.*\)\s+DATA LOSS/,
    );

    const moved = changedTemplate("kubernetes", (stack) =>
      movedFrom(
        resource(stack, "kubernetes_persistent_volume_claim_v1"),
        "kubernetes_persistent_volume_claim_v1.home_v1",
      ),
    );
    const kept = planned(
      await planUpgrade({ dir: moved, name: "kubernetes" }, [renamedState], {
        variables: variablesOf("kubernetes"),
        harness,
      }),
    );
    expect(kept.dataLoss).toEqual([]);
    // With `moved` the claim keeps its data; the pod restarts only for this round's change.
    expect(kept.outcome).toBe("restarted");
    expect(kept.changes.map((c) => `${c.outcome} ${c.address}`)).toEqual([
      "restarted kubernetes_deployment_v1.main[0]",
    ]);
  });

  it("a renamed kubeconfig Secret (packer-builder) is an access loss, forced by metadata.0.name", async () => {
    const dir = changedTemplate("packer-builder", (stack) =>
      resource(stack, "kubernetes_secret_v1", "packer_kubeconfig").addOverride(
        "metadata.name",
        "renamed-kubeconfig",
      ),
    );
    const report = await plan("packer-builder", dir, ["packer-builder"]);
    const w = planned(report);
    expect(w.accessLoss).toEqual([
      "kubernetes_role_binding_v1.workspace_identity_packer_builder_coder_workspace_pod_reader",
      "kubernetes_secret_v1.harvester_identity_token",
      "kubernetes_secret_v1.packer_kubeconfig",
    ]);
    expect(
      w.changes.find((c) => c.address === "kubernetes_secret_v1.packer_kubeconfig"),
    ).toMatchObject({ outcome: "replaced", forcedBy: ["metadata.0.name"], loses: "access" });
    expect(w.dataLoss).toEqual([]);
    expect(exitStatus(report)).toBe(0);
    expect(renderUpgradeText(report)).toMatch(
      /packer_kubeconfig forced by metadata\.0\.name\s+ACCESS LOSS/,
    );
  });
});

describe("states that cannot be planned", () => {
  it("refuses a state of another template, naming both", async () => {
    const report = await plan("kubernetes", synthTemplate("kubernetes").dir, [
      "devcontainer",
      "kubernetes",
    ]);
    const [other, own] = report.workspaces;
    expect(other).toEqual({
      workspace: "alice/app",
      source: "devcontainer.tfstate.json",
      error:
        'alice/app (devcontainer.tfstate.json) belongs to template "devcontainer", not "kubernetes" ' +
        "(data.coder_workspace.me.template_name): refusing to plan another template's state",
    });
    expect("error" in own).toBe(false);
    expect(exitStatus(report)).toBe(1);
    expect(renderUpgradeText(report)).toContain("1 pod restarted, 1 not planned");
  });

  it.each([
    ["", /not a Terraform state \(not JSON: the output was empty\)/],
    ["No state found for workspace", /not JSON; it starts with "No state found/],
    ['{"version":3,"resources":[]}', /Terraform state format 3; only format 4/],
    ['{"version":4,"resources":[]}', /the state is empty/],
    [
      '{"version":4,"resources":[{"mode":"managed","type":"null_resource","name":"x","instances":[]}]}',
      /not a Coder workspace's state/,
    ],
  ])("refuses %j", (text, message) => {
    expect(() => readWorkspaceState(text, "alice/dev")).toThrow(StateError);
    expect(() => readWorkspaceState(text, "alice/dev")).toThrow(message);
  });

  it("answers the data sources with what the state recorded, the workspace starting", () => {
    const state = readWorkspaceState(fs.readFileSync(stateFile("kubernetes-stopped"), "utf8"), "f");
    const reads = state.fixtures.data_sources!;
    expect(reads.coder_workspace).toEqual([
      expect.objectContaining({ name: "weekend", start_count: 1, transition: "start" }),
    ]);
    expect(reads.coder_workspace_owner).toEqual([expect.objectContaining({ name: "bob" })]);
    expect(reads.coder_parameter).toContainEqual({
      match: { name: "cpu" },
      values: expect.objectContaining({ value: "4" }),
    });
    expect((state.state.resources as { module?: string }[]).filter((r) => r.module)).toEqual([]);
  });

  it("answers the devcontainer metadata with what the builder returned at the last build", () => {
    const text = fs.readFileSync(stateFile("devcontainer"), "utf8");
    const recorded = JSON.parse(text).resources.find(
      (r: { type: string }) => r.type === "devcontainerbuilder_devcontainer",
    ).instances[0].attributes;
    const reads = readWorkspaceState(text, "f").fixtures.data_sources!;
    expect(reads.devcontainerbuilder_devcontainer).toEqual([recorded]);
    expect(reads.coder_parameter).toContainEqual({
      match: { name: "repository" },
      values: expect.objectContaining({ value: "https://github.com/acme/app.git" }),
    });
  });
});

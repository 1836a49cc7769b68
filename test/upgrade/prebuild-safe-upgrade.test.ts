/**
 * What updating an existing workspace to the prebuild-safe templates does (docs/upgrading.md):
 * the state of a workspace built before (Deployment selector with owner and name labels, git
 * identity without a count) is planned with today's template.
 *
 * - the Deployment's selector changes, which the real kubernetes provider answers with a
 *   replacement: once, the pod restarts;
 * - the PVC, the agent and (packer-builder) the identities stay as they are;
 * - what gained a count for prebuilds (the devcontainer git identity, the packer-builder
 *   clone script) moves to index 0 without being recreated.
 */
import {
  destructiveChanges,
  expectNoReplace,
  TerraformHarness,
  type ApplyResult,
} from "@coder-cdktf/terraform-harness";
import { synthTemplate, type SynthesizedTemplate } from "../support/synth-template";
import { TEMPLATE_INPUTS } from "../prebuilds/template-inputs";

jest.setTimeout(180_000);

type StateJson = Record<string, unknown> & { resources: Record<string, unknown>[] };
type Instance = Record<string, unknown> & { attributes: Record<string, any> };

/** The labels the Deployment's selector and pod had before: every label of the Deployment. */
function withOldSelector(instance: Instance): void {
  const [metadata] = instance.attributes.metadata;
  const [spec] = instance.attributes.spec;
  spec.selector = [{ match_labels: { ...metadata.labels }, match_expressions: [] }];
  spec.template[0].metadata[0].labels = { ...metadata.labels };
}

/** `state` as the previous release left it. */
function previousReleaseState(applied: ApplyResult): StateJson {
  const state = JSON.parse(JSON.stringify(applied.state)) as StateJson;
  for (const resource of state.resources) {
    const instances = resource.instances as Instance[];
    if (resource.type === "kubernetes_deployment_v1") instances.forEach(withOldSelector);
    const counted =
      (resource.type === "coder_env" && String(resource.name).startsWith("git_")) ||
      (resource.type === "coder_script" && resource.name === "clone_repository");
    if (counted) {
      // No count: one instance without an index.
      delete resource.each;
      for (const instance of instances) delete instance.index_key;
    }
  }
  return state;
}

/** What must stay (a no-op) in each template when a workspace of the previous release updates. */
const KEPT: Readonly<Record<string, readonly string[]>> = {
  kubernetes: ["kubernetes_persistent_volume_claim_v1.home", "coder_agent.main"],
  devcontainer: [
    "kubernetes_persistent_volume_claim_v1.data",
    "devcontainerbuilder_build.workspace",
    "coder_agent.main",
    "coder_env.git_author_name[0]",
    "coder_env.git_author_email[0]",
  ],
  "packer-builder": [
    "kubernetes_persistent_volume_claim_v1.persistent",
    "kubernetes_service_account_v1.harvester_identity",
    "kubernetes_service_account_v1.workspace_identity",
    "coder_agent.main",
    "coder_script.clone_repository[0]",
  ],
};

/**
 * The previous release's shape of each template's inputs. devcontainer set the git identity
 * itself; it still does with `git_config = false`, which is what this test moves. With the
 * default, Coder's git-config module sets it instead (test/templates/user-config-modules.test.ts
 * "updates a workspace of the previous release …").
 */
const PREVIOUS_SHAPE: Readonly<Record<string, Record<string, unknown>>> = {
  devcontainer: { git_config: false },
};

describe.each(
  TEMPLATE_INPUTS.map((t) => ({
    ...t,
    options: {
      ...t.options,
      variables: { ...t.options.variables, ...PREVIOUS_SHAPE[t.id] },
    },
    kept: KEPT[t.id],
  })),
)("template $id: updating a workspace of the previous release", ({ id, options, kept }) => {
  let tf: TerraformHarness;
  let template: SynthesizedTemplate;
  let previous: StateJson;
  let plan: Awaited<ReturnType<TerraformHarness["plan"]>>;

  beforeAll(async () => {
    template = synthTemplate(id);
    tf = await TerraformHarness.start();
    previous = previousReleaseState(await tf.apply(template.dir, options));
    plan = await tf.plan(template.dir, { ...options, state: previous });
  });
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  it("changes the Deployment's selector once (a replacement in the real provider: the pod restarts)", () => {
    const deployment = plan.resource("kubernetes_deployment_v1.main[0]");
    const labels = (deployment.after.spec as any[])[0].selector[0].match_labels;
    expect(Object.keys(labels).sort()).toEqual([
      "app.kubernetes.io/instance",
      "app.kubernetes.io/name",
      "app.kubernetes.io/part-of",
      "com.coder.resource",
      "com.coder.workspace.id",
    ]);
    expect(labels).not.toEqual((deployment.before!.spec as any[])[0].selector[0].match_labels);
    // The mock answers the ForceNew selector as the real provider does. The pod's
    // coder_metadata follows the new Deployment's id (its resource_id), and nothing else.
    const changes = destructiveChanges(plan);
    for (const c of changes.filter((c) => c.address.startsWith("coder_metadata.")))
      expect(c).toEqual({
        address: c.address,
        actions: ["delete", "create"],
        replacePaths: ["resource_id"],
      });
    expect(changes.filter((c) => !c.address.startsWith("coder_metadata."))).toEqual([
      {
        address: "kubernetes_deployment_v1.main[0]",
        actions: ["delete", "create"],
        replacePaths: ["spec.0.selector"],
      },
    ]);
  });

  it("keeps the volume, the agent and the identities, and moves the git identity without recreating it", () => {
    const changes = new Map(plan.resourceChanges.map((r) => [r.address, r.actions]));
    for (const address of kept)
      expect([address, changes.get(address)]).toEqual([address, ["no-op"]]);
    expectNoReplace(plan);
    expect(
      plan.resourceChanges.filter(
        (r) =>
          r.mode === "managed" &&
          r.address !== "kubernetes_deployment_v1.main[0]" &&
          !/^coder_metadata\.pod(_info)?\[0\]$/.test(r.address) &&
          (r.actions.includes("delete") || r.actions.includes("create")),
      ),
    ).toEqual([]);
  });
});

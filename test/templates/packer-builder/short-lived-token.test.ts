import { parse } from "yaml";
import {
  TerraformHarness,
  TerraformError,
  DEFAULT_WORKSPACE,
  type ApplyResult,
  type PlanResult,
} from "@coder-cdktf/terraform-harness";
import {
  appliedToken,
  REQUIRED_VARIABLES,
  synthPackerBuilder,
  type SynthesizedPackerBuilder,
} from "./synthesized-template";

// The workspace's Harvester credential is short-lived (issue 33): a TokenRequest minted at
// every start, bound to a session Secret that exists only while the workspace runs, with a
// bounded lifetime; no kubernetes.io/service-account-token Secret anywhere. Real Terraform
// plans and applies a start, a stop and the next start against the mock providers, which
// mint the token as the API server would (a new one per request, a new uid per object).

const WS = `coder-${String(DEFAULT_WORKSPACE.id)}`;
const TOKEN = "kubernetes_token_request_v1.harvester_identity[0]";
const SESSION = "kubernetes_secret_v1.harvester_identity_session[0]";
const KUBECONFIG = "kubernetes_secret_v1.packer_kubeconfig";

type StateResource = { address: string; values: Record<string, any> };
const inState = (applied: ApplyResult, address: string): StateResource => {
  const found = applied.resources.find((r) => r.address === address);
  if (!found) throw new Error(`${address} is not in the state`);
  return found as StateResource;
};
const changes = (plan: PlanResult) =>
  plan.resourceChanges
    .filter((r) => r.mode === "managed" && !r.actions.every((a) => a === "no-op"))
    .map((r) => `${r.address}: ${r.actions.join(",")}`)
    .sort();
const kubeconfigToken = (applied: ApplyResult): unknown => {
  const config = parse(inState(applied, KUBECONFIG).values.data.config as string);
  return config.users[0].user.token;
};

describe("packer-builder short-lived Harvester token", () => {
  let tf: TerraformHarness;
  let template: SynthesizedPackerBuilder;
  let first: ApplyResult;
  let stopPlan: PlanResult;
  let stopped: ApplyResult;
  let startPlan: PlanResult;
  let second: ApplyResult;

  beforeAll(async () => {
    template = synthPackerBuilder();
    tf = await TerraformHarness.start();
    const options = { variables: REQUIRED_VARIABLES };
    first = await tf.apply(template.dir, options);
    const stop = { ...options, workspace: { startCount: 0 as const } };
    stopPlan = await tf.plan(template.dir, { ...stop, state: first });
    stopped = await tf.apply(template.dir, { ...stop, state: first });
    startPlan = await tf.plan(template.dir, { ...options, state: stopped });
    second = await tf.apply(template.dir, { ...options, state: stopped });
  }, 180_000);
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  it("plans no kubernetes.io/service-account-token Secret, started or stopped", () => {
    for (const plan of [stopPlan, startPlan]) {
      const tokenSecrets = plan.resourceChanges.filter(
        (r) =>
          r.type === "kubernetes_secret_v1" &&
          r.after?.type === "kubernetes.io/service-account-token",
      );
      expect(tokenSecrets.map((r) => r.address)).toEqual([]);
    }
    for (const applied of [first, stopped, second]) {
      const tokenSecrets = applied.resources.filter(
        (r) =>
          r.type === "kubernetes_secret_v1" &&
          r.values.type === "kubernetes.io/service-account-token",
      );
      expect(tokenSecrets).toEqual([]);
    }
  });

  it("mints the token for the workspace's Harvester service account, bound to its session Secret", () => {
    const request = inState(first, TOKEN).values;
    const session = inState(first, SESSION).values;
    expect(request.metadata[0]).toMatchObject({ name: WS, namespace: "packer-dev" });
    expect(request.spec[0].expiration_seconds).toBe(10 * 3600);
    expect(request.spec[0].bound_object_ref).toEqual([
      { api_version: "v1", kind: "Secret", name: `${WS}-session`, uid: session.metadata[0].uid },
    ]);
    expect(session.metadata[0].uid).toMatch(/^[0-9a-f-]{36}$/);
    // The session Secret holds nothing: it is only what the token's life is bound to.
    expect(session.type).toBe("Opaque");
    expect(Object.keys(session.data ?? {})).toEqual([]);
  });

  it("revokes at stop: the stop deletes the token and its session and empties the kubeconfig", () => {
    expect(changes(stopPlan)).toEqual(
      [
        "coder_metadata.pod[0]: delete",
        "coder_script.agent_manual[0]: delete",
        "kubernetes_deployment_v1.main[0]: delete",
        // The agent token's copy goes with the pod (issue 43.2).
        "kubernetes_secret_v1.agent_token[0]: delete",
        `${KUBECONFIG}: update`,
        `${SESSION}: delete`,
        `${TOKEN}: delete`,
      ].sort(),
    );
    expect(stopped.resources.map((r) => r.address)).not.toContain(TOKEN);
    expect(stopped.resources.map((r) => r.address)).not.toContain(SESSION);
    expect(kubeconfigToken(stopped)).toBe("");
  });

  it("replaces the token at the next start: a new request, a new session, a new token in the kubeconfig", () => {
    expect(changes(startPlan)).toEqual(
      [
        "coder_metadata.pod[0]: create",
        "coder_script.agent_manual[0]: create",
        "kubernetes_deployment_v1.main[0]: create",
        "kubernetes_secret_v1.agent_token[0]: create",
        `${KUBECONFIG}: update`,
        `${SESSION}: create`,
        `${TOKEN}: create`,
      ].sort(),
    );
    const before = appliedToken(first.resources);
    const after = appliedToken(second.resources);
    expect(after).not.toBe(before);
    expect(kubeconfigToken(first)).toBe(before);
    expect(kubeconfigToken(second)).toBe(after);
    const oldSession = inState(first, SESSION).values.metadata[0].uid;
    const newSession = inState(second, SESSION).values.metadata[0].uid;
    expect(newSession).not.toBe(oldSession);
    expect(inState(second, TOKEN).values.spec[0].bound_object_ref[0].uid).toBe(newSession);
  });

  it("still mounts the kubeconfig Secret read-only, 0400, as a single file", () => {
    const deployment = inState(second, "kubernetes_deployment_v1.main[0]").values;
    const pod = deployment.spec[0].template[0].spec[0];
    const volume = pod.volume.find((v: any) => v.name === "packer-kubeconfig");
    expect(volume.secret[0]).toMatchObject({
      secret_name: `${WS}-packer-kubeconfig`,
      default_mode: "0400",
    });
    const mount = pod.container[0].volume_mount.find((m: any) => m.name === "packer-kubeconfig");
    expect(mount).toMatchObject({
      mount_path: "/etc/packer-kubeconfig.yaml",
      sub_path: "config",
      read_only: true,
    });
  });

  it("takes its lifetime from harvester_token_hours, within 1 to 24 hours", async () => {
    const plan = await tf.plan(template.dir, {
      variables: { ...REQUIRED_VARIABLES, harvester_token_hours: 8 },
    });
    expect((plan.resource(TOKEN).after as any).spec[0].expiration_seconds).toBe(8 * 3600);
    for (const hours of [0, 25, 1.5]) {
      const refused = await tf
        .plan(template.dir, { variables: { ...REQUIRED_VARIABLES, harvester_token_hours: hours } })
        .then(
          () => [],
          (e: unknown) =>
            e instanceof TerraformError
              ? e.diagnostics.map((d) => d.summary + d.detail)
              : [String(e)],
        );
      expect(refused.join("\n")).toContain(
        "harvester_token_hours must be a whole number from 1 to 24.",
      );
    }
  }, 60_000);
});

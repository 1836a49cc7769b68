import { parse } from "yaml";
import {
  TerraformHarness,
  DEFAULT_WORKSPACE,
  type ApplyResult,
  type PlanResult,
} from "@coder-cdktf/terraform-harness";
import {
  appliedToken,
  FIXTURE_CA_PEM,
  REQUIRED_VARIABLES,
  synthPackerBuilder,
  type SynthesizedPackerBuilder,
} from "./synthesized-template";

// The workspace kubeconfig: built at apply time from the token the TokenRequest minted at
// this start (the mock mints it as the API server would) and the operator's CA, stored in a
// Secret on the workspace cluster, sensitive everywhere.

const WS = `coder-${String(DEFAULT_WORKSPACE.id)}`;
const CA_PEM = FIXTURE_CA_PEM;
const VARIABLES = { ...REQUIRED_VARIABLES, harvester_ca_certificate: CA_PEM };

/** Every string in `value` that is not marked sensitive in the matching `sensitive` mirror. */
function nonSensitiveStrings(value: unknown, sensitive: unknown): string[] {
  if (sensitive === true) return [];
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) {
    return value.flatMap((v, i) =>
      nonSensitiveStrings(v, Array.isArray(sensitive) ? sensitive[i] : undefined),
    );
  }
  if (value !== null && typeof value === "object") {
    const mirror = (sensitive ?? {}) as Record<string, unknown>;
    return Object.entries(value).flatMap(([k, v]) => nonSensitiveStrings(v, mirror[k]));
  }
  return [];
}

describe("packer-builder kubeconfig Secret", () => {
  let tf: TerraformHarness;
  let template: SynthesizedPackerBuilder;
  let applied: ApplyResult;
  let replanned: PlanResult;

  beforeAll(async () => {
    template = synthPackerBuilder();
    tf = await TerraformHarness.start();
    applied = await tf.apply(template.dir, { variables: VARIABLES });
    replanned = await tf.plan(template.dir, { variables: VARIABLES, state: applied });
  }, 120_000);
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  const kubeconfigSecret = () => replanned.resource("kubernetes_secret_v1.packer_kubeconfig");
  const token = () => appliedToken(applied.resources);
  /** Strings the plan must hold only in sensitive values: the token and the CA, plain and base64. */
  const secrets = () => [
    token(),
    CA_PEM,
    Buffer.from(token()).toString("base64"),
    Buffer.from(CA_PEM).toString("base64"),
  ];

  it("is stable once applied: planning on the state changes nothing", () => {
    const changed = replanned.resourceChanges.filter(
      (r) => r.mode === "managed" && !r.actions.includes("no-op"),
    );
    expect(changed.map((r) => r.address)).toEqual([]);
    expect(applied.warnings).toEqual([]);
  });

  it("holds a kubeconfig for the packer-dev identity: server, CA, token, default namespace", () => {
    const data = kubeconfigSecret().after.data as Record<string, string>;
    expect(Object.keys(data)).toEqual(["config"]);
    const kubeconfig = parse(data.config) as Record<string, unknown>;
    expect(kubeconfig).toEqual({
      apiVersion: "v1",
      kind: "Config",
      clusters: [
        {
          name: "harvester",
          cluster: {
            server: REQUIRED_VARIABLES.harvester_api_server,
            "certificate-authority-data": Buffer.from(CA_PEM).toString("base64"),
          },
        },
      ],
      users: [{ name: WS, user: { token: token() } }],
      contexts: [
        { name: WS, context: { cluster: "harvester", user: WS, namespace: "packer-dev" } },
      ],
      "current-context": WS,
    });
  });

  it("keeps the minted token and the kubeconfig Secret data sensitive", () => {
    expect(token()).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(kubeconfigSecret().afterSensitive.data).toBe(true);
    const request = replanned.resource("kubernetes_token_request_v1.harvester_identity[0]");
    expect(request.afterSensitive.token).toBe(true);
    expect(request.after.token).toBe(token());
  });

  it("leaves the CA out when harvester_ca_certificate is empty (the pod's trust store decides)", async () => {
    const bare = await tf.apply(template.dir, { variables: REQUIRED_VARIABLES });
    const secret = bare.resources.find(
      (r) => r.address === "kubernetes_secret_v1.packer_kubeconfig",
    );
    const kubeconfig = parse((secret!.values.data as Record<string, string>).config);
    expect(kubeconfig.clusters).toEqual([
      { name: "harvester", cluster: { server: REQUIRED_VARIABLES.harvester_api_server } },
    ]);
  }, 60_000);

  it("puts no token or CA in any non-sensitive planned value or output", () => {
    // The plan does carry them (in sensitive values), so the search below can find them.
    expect(JSON.stringify(replanned.raw)).toContain(token());
    const exposed = replanned.resourceChanges.flatMap((r) =>
      nonSensitiveStrings(r.after, r.afterSensitive)
        .filter((text) => secrets().some((secret) => text.includes(secret.trim())))
        .map((text) => `${r.address}: ${text}`),
    );
    expect(exposed).toEqual([]);
    expect(JSON.stringify(applied.outputs)).not.toContain(token());
  });

  it("never reads the Harvester kubeconfig file into Terraform values", () => {
    const text = JSON.stringify(template.config);
    // The only files read are the template's own shipped scripts and the agents' manual.
    const reads = [...text.matchAll(/\b(file|yamldecode|filebase64|templatefile)\([^)]*\)/g)];
    expect(reads.map((m) => m[0]).sort()).toEqual(
      [
        // The sweep runs twice: at stop, and at the next start for what a stop left.
        ...[
          "bootstrap",
          "clone-repository",
          "install-agent-skill",
          "sweep-build-vms",
          "sweep-build-vms",
        ].map((name) => `scripts/${name}.sh`),
        "subagents/packer-builder.md",
      ].map((file) => `file(\\"\${path.module}/${file}\\")`),
    );
    expect(template.config.provider.kubernetes).toContainEqual({
      alias: "harvester",
      config_path: "${var.harvester_kubeconfig_path}",
    });
    expect(template.config.variable.harvester_kubeconfig_path.default).toBe("/kubeconfig.yaml");
  });
});

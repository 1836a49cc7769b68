import { parse } from "yaml";
import {
  TerraformHarness,
  DEFAULT_WORKSPACE,
  type ApplyResult,
  type PlanResult,
} from "@coder-cdktf/terraform-harness";
import {
  FIXTURE_CA_PEM,
  FIXTURE_TOKEN,
  REQUIRED_VARIABLES,
  TOKEN_SECRET_FIXTURES,
  synthPackerBuilder,
  type SynthesizedPackerBuilder,
} from "./synthesized-template";

// The workspace kubeconfig: built at apply time from the Harvester token Secret, stored
// in a Secret on the workspace cluster, sensitive everywhere. The mock provider fills the
// token Secret from the fixture below, as the cluster would (wait_for_service_account_token).

const WS = `coder-${String(DEFAULT_WORKSPACE.id)}`;
const TOKEN = FIXTURE_TOKEN;
const CA_PEM = FIXTURE_CA_PEM;
const FIXTURES = { resources: TOKEN_SECRET_FIXTURES };

/** Strings the plan must hold only in sensitive values: the token and the CA, plain and base64. */
const SECRETS = [
  TOKEN,
  CA_PEM,
  Buffer.from(TOKEN).toString("base64"),
  Buffer.from(CA_PEM).toString("base64"),
];

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
    applied = await tf.apply(template.dir, { variables: REQUIRED_VARIABLES, fixtures: FIXTURES });
    replanned = await tf.plan(template.dir, {
      variables: REQUIRED_VARIABLES,
      fixtures: FIXTURES,
      state: applied,
    });
  }, 120_000);
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  const kubeconfigSecret = () => replanned.resource("kubernetes_secret_v1.packer_kubeconfig");

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
      users: [{ name: WS, user: { token: TOKEN } }],
      contexts: [
        { name: WS, context: { cluster: "harvester", user: WS, namespace: "packer-dev" } },
      ],
      "current-context": WS,
    });
  });

  it("keeps the token Secret and the kubeconfig Secret data sensitive", () => {
    expect(kubeconfigSecret().afterSensitive.data).toBe(true);
    const token = replanned.resource("kubernetes_secret_v1.harvester_identity_token");
    expect(token.afterSensitive.data).toBe(true);
    expect(token.after.data).toMatchObject({ token: TOKEN });
  });

  it("puts no token or CA in any non-sensitive planned value or output", () => {
    // The plan does carry them (in sensitive values), so the search below can find them.
    expect(JSON.stringify(replanned.raw)).toContain(TOKEN);
    const exposed = replanned.resourceChanges.flatMap((r) =>
      nonSensitiveStrings(r.after, r.afterSensitive)
        .filter((text) => SECRETS.some((secret) => text.includes(secret.trim())))
        .map((text) => `${r.address}: ${text}`),
    );
    expect(exposed).toEqual([]);
    expect(JSON.stringify(applied.outputs)).not.toContain(TOKEN);
  });

  it("never reads the Harvester kubeconfig file into Terraform values", () => {
    const text = JSON.stringify(template.config);
    // The only files read are the template's own shipped scripts and the agents' manual.
    const reads = [...text.matchAll(/\b(file|yamldecode|filebase64|templatefile)\([^)]*\)/g)];
    expect(reads.map((m) => m[0]).sort()).toEqual(
      [
        ...["bootstrap", "clone-repository", "install-agent-skill", "sweep-build-vms"].map(
          (name) => `scripts/${name}.sh`,
        ),
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

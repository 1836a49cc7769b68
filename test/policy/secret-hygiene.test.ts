/**
 * Secret hygiene of every synthesized template:
 * 1. a reference scan of cdk.tf.json: no credential flows (directly or through locals) into
 *    argv, a container's env value, a URL, a label or annotation, an output, a script or a
 *    check message;
 * 2. a plan with the real Terraform CLI and the mock providers, where every credential has a
 *    known value: no planned value outside Terraform's sensitive paths contains one.
 */
import { TEMPLATES } from "../../app/registry";
import { type SynthesizedTemplate, synthTemplate } from "../support/synth-template";
import { findSecretLeaks, sinks } from "./secret-flow";
import {
  collectResources,
  TerraformHarness,
  type Fixtures,
  type PlanResult,
} from "@coder-cdktf/terraform-harness";

jest.setTimeout(180_000);

const synthesized = new Map<string, SynthesizedTemplate>();
const configs = new Map<string, Record<string, unknown>>();

beforeAll(() => {
  for (const { id } of TEMPLATES) {
    const t = synthTemplate(id);
    synthesized.set(id, t);
    configs.set(id, t.config);
  }
});

afterAll(() => synthesized.forEach((t) => t.cleanup()));

describe("the reference scan", () => {
  /** A configuration with one leak of each kind, and the same values in sensitive places. */
  const leaky = {
    variable: {
      git_token: { type: "string", sensitive: true },
      namespace: { type: "string" },
    },
    locals: {
      auth_header: "Bearer ${var.git_token}",
      dc: "${one(data.devcontainerbuilder_devcontainer.workspace[*])}",
      image: "${local.dc.image}",
      registry_password: "${local.dc.registry_credentials.password}",
    },
    resource: {
      coder_agent: {
        main: {
          metadata: [{ key: "t", script: "echo ${data.coder_workspace_owner.me.session_token}" }],
          startup_script: "echo $${HOME} ${var.namespace}",
        },
      },
      coder_app: { web: { url: "http://localhost:8080/?token=${coder_agent.main.token}" } },
      coder_script: { clone: { script: "git clone https://x:${local.auth_header}@host/r" } },
      kubernetes_deployment_v1: {
        main: {
          metadata: { labels: { token: "${data.coder_external_auth.git[0].access_token}" } },
          spec: {
            template: {
              metadata: {
                annotations: { kubeconfig: "${kubernetes_secret_v1.kubeconfig.data.config}" },
              },
              spec: {
                container: [
                  {
                    name: "dev",
                    image: "${local.image}",
                    command: ["sh", "-c", "${local.registry_password}"],
                    env: [{ name: "CODER_AGENT_TOKEN", value: "${coder_agent.main.token}" }],
                  },
                ],
              },
            },
          },
        },
      },
    },
    output: {
      token: { value: "${kubernetes_token_request_v1.ws.token}" },
      hidden: { value: "${kubernetes_token_request_v1.ws.token}", sensitive: true },
    },
    check: { c: { assert: [{ condition: "${true}", error_message: "${var.git_token}" }] } },
  };

  it("finds a credential in each kind of non-sensitive place, through locals too", () => {
    const leaks = findSecretLeaks(leaky);
    const at = (place: string) => leaks.filter((l) => l.place === place).map((l) => l.source);
    expect(at("coder_agent.main metadata[0].script")).toEqual([
      "data.coder_workspace_owner.me.session_token",
    ]);
    expect(at("coder_app.web url")).toEqual(["coder_agent.main.token"]);
    expect(at("coder_script.clone script")).toEqual([
      "var.git_token (sensitive variable) (through local.auth_header)",
    ]);
    expect(at("kubernetes_deployment_v1.main metadata.labels")).toEqual([
      "data.coder_external_auth.git.access_token",
    ]);
    expect(at("kubernetes_deployment_v1.main spec.template.metadata.annotations")).toEqual([
      "kubernetes_secret_v1.kubeconfig.data.config",
    ]);
    expect(at("kubernetes_deployment_v1.main spec.template.spec.container[0].command")).toEqual([
      "data.devcontainerbuilder_devcontainer.workspace.registry_credentials.password (through local.dc) (through local.registry_password)",
    ]);
    expect(at("output.token")).toEqual(["kubernetes_token_request_v1.ws.token"]);
    // Issue 43.2: a literal env value is in the pod spec; the token goes through a Secret.
    expect(
      at("kubernetes_deployment_v1.main spec.template.spec.container[0].env[0].value"),
    ).toEqual(["coder_agent.main.token"]);
    expect(at("check.c.assert[0].error_message")).toEqual(["var.git_token (sensitive variable)"]);
    // Sensitive places (sensitive outputs) and harmless values are not leaks.
    expect(leaks.map((l) => l.place)).not.toContain("output.hidden");
    expect(leaks.filter((l) => l.source.includes("local.image"))).toEqual([]);
    expect(leaks).toHaveLength(9);
  });

  it("follows a credential through terraform_data's input to its output, and not a plain one", () => {
    const leaks = findSecretLeaks({
      resource: {
        terraform_data: {
          carried: { input: { header: "${local.auth}" } },
          plain: { input: "${var.branch}" },
          loop: { input: "${terraform_data.loop.output}" },
        },
        coder_script: {
          clone: { script: "git -c ${terraform_data.carried.output.header} clone" },
          plain: { script: "echo ${terraform_data.plain.output} ${terraform_data.loop.output}" },
          linked: { script: 'echo ${coder_agent.main.token != "" ? "linked" : "not linked"}' },
        },
      },
      locals: { auth: "${base64encode(coder_agent.main.token)}" },
    });
    expect(leaks).toEqual([
      {
        place: "coder_script.clone script",
        source: "coder_agent.main.token (through local.auth) (through terraform_data.carried)",
      },
    ]);
  });

  it("reads a credential from a Secret through secret_key_ref, and not a leak", () => {
    const leaks = findSecretLeaks({
      resource: {
        kubernetes_secret_v1: { agent_token: { data: { token: "${coder_agent.main.token}" } } },
        kubernetes_deployment_v1: {
          main: {
            spec: {
              template: {
                spec: {
                  container: [
                    {
                      name: "dev",
                      env: [
                        {
                          name: "CODER_AGENT_TOKEN",
                          value_from: {
                            secret_key_ref: {
                              name: "${kubernetes_secret_v1.agent_token[0].metadata[0].name}",
                              key: "token",
                            },
                          },
                        },
                        { name: "PLAIN", value: "${coder_agent.main.id}" },
                      ],
                    },
                  ],
                },
              },
            },
          },
        },
      },
    });
    expect(leaks).toEqual([]);
  });

  it("does not count a null test of an object holding a credential as a flow", () => {
    const leaks = findSecretLeaks({
      locals: { dc: "${one(data.devcontainerbuilder_devcontainer.workspace[*])}" },
      output: {
        built: { value: "${local.dc != null ? 1 : 0}" },
        leak: { value: "${jsonencode(local.dc)}" },
      },
    });
    expect(leaks.map((l) => l.place)).toEqual(["output.leak"]);
  });

  it("follows a copy of an object that leaves its credential out, and only that one", () => {
    const copy = (without: string) =>
      `\${one([for m in data.devcontainerbuilder_devcontainer.workspace : { for k, v in m : k => v if k != "${without}" }])}`;
    const leaks = (without: string) =>
      findSecretLeaks({
        locals: { dc: copy(without) },
        output: {
          whole: { value: "${jsonencode(local.dc)}" },
          user: { value: "${local.dc.remote_user}" },
          password: { value: "${local.dc.registry_credentials.password}" },
        },
      }).map((l) => `${l.place}: ${l.source}`);
    expect(leaks("registry_credentials")).toEqual([]);
    expect(leaks("remote_user")).toEqual([
      "output.whole: data.devcontainerbuilder_devcontainer.workspace.registry_credentials (through local.dc)",
      "output.password: data.devcontainerbuilder_devcontainer.workspace.registry_credentials.password (through local.dc)",
    ]);
  });

  it("reads `$${…}` as literal text, not as a reference", () => {
    const leaks = findSecretLeaks({
      variable: { t: { type: "string", sensitive: true } },
      resource: { coder_script: { s: { script: "echo $${var.t}" } } },
    });
    expect(leaks).toEqual([]);
  });
});

describe.each(TEMPLATES.map((t) => t.id))("template %s", (id) => {
  const config = () => configs.get(id)!;

  it("has non-sensitive places for the scan to look at", () => {
    expect(sinks(config()).length).toBeGreaterThan(0);
  });

  it("lets no credential reach argv, URLs, labels, annotations, outputs or scripts", () => {
    expect(findSecretLeaks(config())).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------
// Planned values: every credential gets a recognizable value, then the whole plan is searched.

/** Known values for each credential the templates can receive. */
const SECRETS = {
  agentToken: "SECRET-agent-token-5b1f",
  externalAuth: "SECRET-external-auth-token-8c2d",
  sessionToken: "SECRET-session-token-3e4a",
  sshKey: "SECRET-ssh-private-key-7f90",
  serviceAccountToken: "SECRET-service-account-token-1a6b",
  tokenRequest: "SECRET-token-request-2c7e",
  userSecret: "SECRET-user-secret-4a8d",
  variable: (name: string) => `SECRET-variable-${name}-9d3c`,
};

const SECRET_PATTERN = /SECRET-[a-z0-9-]+/;

/** Fixtures giving every credential-bearing computed attribute a known secret value. */
const SECRET_FIXTURES: Fixtures = {
  data_sources: {
    coder_external_auth: { access_token: SECRETS.externalAuth },
    coder_secret: { value: SECRETS.userSecret },
    kubernetes_secret_v1: { data: { token: SECRETS.serviceAccountToken, "ca.crt": "fixture-ca" } },
  },
  resources: {
    coder_agent: { token: SECRETS.agentToken },
    kubernetes_secret_v1: { data: { token: SECRETS.serviceAccountToken, "ca.crt": "fixture-ca" } },
    kubernetes_token_request_v1: { token: SECRETS.tokenRequest },
  },
};

/**
 * Variables for a plan: required ones get a plain value by type; sensitive ones get a known
 * secret (and the matching `*_username` a user, so the credential is actually used);
 * `*external_auth_id` names a provider so the external auth token is read.
 */
/** Opt-in features that consume a credential, switched on so that credential is in play. */
// Claude Code signing in with the owner's own key (a user secret): the credential most in play.
const CREDENTIAL_FEATURES: Readonly<Record<string, unknown>> = {
  claude_code: true,
  claude_code_auth: "user_secret",
};

function planVariables(config: Record<string, unknown>): Record<string, unknown> {
  const variables = (config.variable ?? {}) as Record<string, Record<string, unknown>>;
  const values: Record<string, unknown> = {};
  for (const [name, on] of Object.entries(CREDENTIAL_FEATURES))
    if (name in variables) values[name] = on;
  for (const [name, v] of Object.entries(variables)) {
    if (v.sensitive === true) values[name] = SECRETS.variable(name);
    else if (name.endsWith("external_auth_id")) values[name] = "github";
    // The hosts credentials belong to: the parameters' repository host (planParameters).
    else if (name.endsWith("credentials_hosts")) values[name] = [FIXTURE_GIT_HOST];
    else if (name.endsWith("external_auth_host")) values[name] = FIXTURE_GIT_HOST;
    // A user secret is declared, so the fixture's value is read.
    else if (name === "user_secrets") values[name] = ["FIXTURE_TOKEN"];
    else if (name.endsWith("_username")) values[name] = "fixture-user";
    else if (/(_server|_url|_endpoint)$/.test(name))
      values[name] = `https://${name.replace(/_/g, "-")}.example.com`;
    else if (!("default" in v))
      values[name] =
        v.type === "number" ? 1 : v.type === "bool" ? false : `fixture-${name.replace(/_/g, "-")}`;
  }
  return values;
}

/** The host of the fixture repository, which the credentials are bound to. */
const FIXTURE_GIT_HOST = "git.example.com";

/** Parameters without a default get a repository-like URL (the only kind the templates have). */
function planParameters(config: Record<string, unknown>): Record<string, unknown> {
  const data = (config.data ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  const values: Record<string, unknown> = {};
  for (const p of Object.values(data.coder_parameter ?? {})) {
    if (!("default" in p)) values[String(p.name)] = `https://${FIXTURE_GIT_HOST}/acme/app.git`;
  }
  return values;
}

/** The fixture secrets `config` consumes, judged from the types and variables it declares. */
function expectedSecrets(config: Record<string, unknown>): string[] {
  const resources = (config.resource ?? {}) as Record<string, unknown>;
  const data = (config.data ?? {}) as Record<string, unknown>;
  const variables = (config.variable ?? {}) as Record<string, Record<string, unknown>>;
  const expected: string[] = [];
  if (resources.coder_agent) expected.push(SECRETS.agentToken);
  if (data.coder_external_auth) expected.push(SECRETS.externalAuth);
  // A Secret whose data the template writes itself (the devcontainer variables) gets no
  // token from the fixtures; one that Kubernetes fills (a service-account token) does.
  const filledSecrets = Object.values(
    (resources.kubernetes_secret_v1 ?? {}) as Record<string, Record<string, unknown>>,
  ).filter((secret) => secret.data === undefined);
  if (filledSecrets.length > 0 || data.kubernetes_secret_v1)
    expected.push(SECRETS.serviceAccountToken);
  if (data.coder_secret) expected.push(SECRETS.userSecret);
  // The user's own token wins over the template's git token (issue 43.1): with both in play,
  // the template's is used nowhere. git-credentials.test.ts plans it alone.
  const superseded = (name: string) =>
    name === "git_credentials_token" &&
    data.coder_external_auth !== undefined &&
    "allow_template_git_token_fallback" in variables;
  for (const [name, v] of Object.entries(variables)) {
    if (v.sensitive === true && !superseded(name)) expected.push(SECRETS.variable(name));
  }
  return expected;
}

interface Exposure {
  readonly place: string;
  readonly secret: string;
}

/** Strings under `value` that contain a secret where `sensitive` (Terraform's mask) is not true. */
function exposures(value: unknown, sensitive: unknown, place: string): Exposure[] {
  if (sensitive === true) return [];
  if (typeof value === "string") {
    const m = SECRET_PATTERN.exec(value);
    return m ? [{ place, secret: m[0] }] : [];
  }
  const mask = (key: string | number): unknown =>
    sensitive !== null && typeof sensitive === "object"
      ? (sensitive as Record<string, unknown>)[key]
      : undefined;
  if (Array.isArray(value)) return value.flatMap((v, i) => exposures(v, mask(i), `${place}[${i}]`));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => exposures(v, mask(k), `${place}.${k}`));
  }
  return [];
}

/** Every exposed secret of a plan: resource changes, read data sources and outputs. */
function planExposures(plan: PlanResult): Exposure[] {
  const found: Exposure[] = [];
  for (const r of plan.resourceChanges)
    found.push(...exposures(r.after, r.afterSensitive, r.address));
  const prior = (plan.raw.prior_state ?? {}) as { values?: { root_module?: unknown } };
  for (const d of collectResources(prior.values?.root_module).filter((r) => r.mode === "data")) {
    found.push(...exposures(d.values, d.sensitive_values, String(d.address)));
  }
  for (const [name, o] of Object.entries(plan.outputs)) {
    if (!o.sensitive) found.push(...exposures(o.value, false, `output.${name}`));
  }
  return found;
}

/** Secrets held in a planned container's env `value`, sensitive mask or not. */
function envValueExposures(plan: PlanResult): Exposure[] {
  const found: Exposure[] = [];
  const walk = (value: unknown, place: string, inEnv: boolean): void => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${place}[${i}]`, inEnv));
    else if (value !== null && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) {
        if (inEnv && k === "value" && typeof v === "string") {
          const m = SECRET_PATTERN.exec(v);
          if (m) found.push({ place: `${place}.value`, secret: m[0] });
        } else walk(v, `${place}.${k}`, k === "env");
      }
    }
  };
  for (const r of plan.resourceChanges)
    if (r.type.startsWith("kubernetes_")) walk(r.after, r.address, false);
  return found;
}

describe("planned values", () => {
  let tf: TerraformHarness;
  beforeAll(async () => (tf = await TerraformHarness.start()));
  afterAll(() => tf.stop());

  it("the search finds a secret outside sensitive paths, and only there", () => {
    expect(
      exposures(
        { env: [{ value: SECRETS.agentToken }], command: ["sh", `x ${SECRETS.agentToken}`] },
        { env: [{ value: true }] },
        "r",
      ),
    ).toEqual([{ place: "r.command[1]", secret: SECRETS.agentToken }]);
  });

  it.each(TEMPLATES.map((t) => t.id))(
    "%s: no credential appears in a non-sensitive planned value of a running workspace",
    async (id) => {
      const config = configs.get(id)!;
      const dir = synthesized.get(id)!.dir;
      const inputs = {
        variables: planVariables(config),
        parameters: planParameters(config),
        fixtures: SECRET_FIXTURES,
        owner: { session_token: SECRETS.sessionToken, ssh_private_key: SECRETS.sshKey },
      };
      // Apply first so computed credentials (the agent token, Secret data) hold their
      // fixture values; the plan on top of that state then shows every value known.
      const applied = await tf.apply(dir, inputs);
      const plan = await tf.plan(dir, { ...inputs, state: applied });
      const stateExposures = applied.resources.flatMap((r) =>
        exposures(r.values, r.sensitive, r.address),
      );
      expect(planExposures(plan)).toEqual([]);
      expect(stateExposures).toEqual([]);
      // Masked or not, no container's env value holds a credential (issue 43.2): the pod spec
      // is what `view` on the namespace reads; credentials come from Secrets by reference.
      expect(envValueExposures(plan)).toEqual([]);
      // The search is not vacuous: each credential the template consumes was in play.
      const state = JSON.stringify(applied.state);
      for (const secret of expectedSecrets(config)) expect(state).toContain(secret);
    },
  );
});

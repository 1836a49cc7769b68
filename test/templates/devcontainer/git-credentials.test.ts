/**
 * Git credentials for the image build (docs/security.md, "Secrets"): the template-wide token
 * and the user's external auth token reach exactly one place, the build's sensitive
 * `git_credentials`, and rotating them never rebuilds (ignore_changes).
 */
import {
  collectResources,
  TerraformHarness,
  type ApplyResult,
  type PlanOptions,
  type PlanResult,
} from "@coder-cdktf/terraform-harness";
import {
  devcontainerFixtures,
  metadata,
  REPOSITORY,
  REQUIRED_VARIABLES,
  synthesizeDevcontainer,
  type SynthesizedDevcontainer,
} from "./synthesized";

jest.setTimeout(120_000);

const TEMPLATE_TOKEN = "git-template-token-4f1e9a";
const ROTATED_TOKEN = "git-template-token-rotated-77b0";
const EXTERNAL_AUTH_TOKEN = "git-external-auth-token-c3d2";

/** One place a value was found: its path in the plan or state, and whether Terraform masks it. */
interface Occurrence {
  readonly place: string;
  readonly sensitive: boolean;
}

/** Every place under `value` holding `secret`, with `mask` (Terraform's sensitivity mirror). */
function occurrences(value: unknown, mask: unknown, place: string, secret: string): Occurrence[] {
  if (typeof value === "string") {
    return value.includes(secret) ? [{ place, sensitive: mask === true }] : [];
  }
  const sub = (key: string | number): unknown =>
    mask === true ? true : mask !== null && typeof mask === "object" ? (mask as any)[key] : false;
  if (Array.isArray(value)) {
    return value.flatMap((v, i) => occurrences(v, sub(i), `${place}[${i}]`, secret));
  }
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) =>
      occurrences(v, sub(k), `${place}.${k}`, secret),
    );
  }
  return [];
}

/** Where `secret` appears in a plan's resource changes, read data sources and outputs. */
function planOccurrences(plan: PlanResult, secret: string): Occurrence[] {
  const found: Occurrence[] = [];
  for (const r of plan.resourceChanges) {
    found.push(...occurrences(r.after, r.afterSensitive, r.address, secret));
  }
  const prior = (plan.raw.prior_state ?? {}) as { values?: { root_module?: unknown } };
  for (const d of collectResources(prior.values?.root_module).filter((r) => r.mode === "data")) {
    found.push(...occurrences(d.values, d.sensitive_values, String(d.address), secret));
  }
  for (const [name, o] of Object.entries(plan.outputs)) {
    found.push(...occurrences(o.value, o.sensitive, `output.${name}`, secret));
  }
  return found;
}

describe("devcontainer template: git credentials", () => {
  let tf: TerraformHarness;
  let template: SynthesizedDevcontainer;
  let buildAddress: string;
  const base: PlanOptions = {
    variables: REQUIRED_VARIABLES,
    parameters: { repository: REPOSITORY },
    fixtures: devcontainerFixtures(metadata()),
  };
  const withTemplateToken = (token: string): PlanOptions => ({
    ...base,
    variables: {
      ...REQUIRED_VARIABLES,
      git_credentials_username: "ci-bot",
      git_credentials_token: token,
    },
  });

  beforeAll(async () => {
    tf = await TerraformHarness.start();
    template = synthesizeDevcontainer();
    const builds = Object.keys(template.config.resource.devcontainerbuilder_build);
    expect(builds).toHaveLength(1);
    buildAddress = `devcontainerbuilder_build.${builds[0]}`;
  });
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  it("declares the token sensitive and ignores credential changes on the build", () => {
    expect(template.config.variable.git_credentials_token.sensitive).toBe(true);
    const build = Object.values(template.config.resource.devcontainerbuilder_build)[0] as any;
    expect(build.lifecycle.ignore_changes).toContain("git_credentials");
  });

  it("puts the template-wide token only in the build's sensitive git_credentials", async () => {
    // Applied too, from the saved plan: the run cache hands that state to the rotation test.
    const { plan } = await tf.planAndApply(template.dir, withTemplateToken(TEMPLATE_TOKEN));
    expect(plan.resource(buildAddress).after.git_credentials).toEqual({
      username: "ci-bot",
      token: TEMPLATE_TOKEN,
    });
    expect(planOccurrences(plan, TEMPLATE_TOKEN)).toEqual([
      { place: `${buildAddress}.git_credentials.token`, sensitive: true },
    ]);
  });

  it("puts the user's external auth token only in the build's sensitive git_credentials", async () => {
    const fixtures = devcontainerFixtures(metadata());
    const plan = await tf.plan(template.dir, {
      ...base,
      variables: { ...REQUIRED_VARIABLES, external_auth_id: "github" },
      fixtures: {
        ...fixtures,
        data_sources: {
          ...fixtures.data_sources,
          coder_external_auth: { access_token: EXTERNAL_AUTH_TOKEN },
        },
      },
    });
    expect(plan.resource(buildAddress).after.git_credentials).toEqual({
      username: "oauth2",
      token: EXTERNAL_AUTH_TOKEN,
    });
    // Read from Coder (sensitive in the provider schema), then handed to the build only.
    expect(
      planOccurrences(plan, EXTERNAL_AUTH_TOKEN).sort((a, b) => a.place.localeCompare(b.place)),
    ).toEqual([
      { place: "data.coder_external_auth.git[0].access_token", sensitive: true },
      { place: `${buildAddress}.git_credentials.token`, sensitive: true },
    ]);
  });

  it("sends no credentials when neither a username nor external auth is set", async () => {
    const plan = await tf.plan(template.dir, base);
    expect(plan.resource(buildAddress).after.git_credentials ?? null).toBeNull();
    expect(plan.dataSources("coder_external_auth")).toEqual([]);
  });

  it("does not rebuild when the token is rotated (ignore_changes)", async () => {
    const applied: ApplyResult = await tf.apply(template.dir, withTemplateToken(TEMPLATE_TOKEN));
    const plan = await tf.plan(template.dir, {
      ...withTemplateToken(ROTATED_TOKEN),
      state: applied,
    });
    expect(plan.resource(buildAddress).actions).toEqual(["no-op"]);
    expect(planOccurrences(plan, ROTATED_TOKEN)).toEqual([]);
  });
});

/**
 * The organization CA (issue 15 item 7): `ca_url` over plain http is taken only together with
 * `ca_sha256`, which the template hands to the bootstrap as BOOTSTRAP_CA_SHA256. Held three
 * times: by the operator's defaults at synth, by a precondition when Terraform plans (push and
 * every build), and by bootstrap.sh itself (test/templates/packer-builder/scripts/bootstrap.test.ts).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ConfigError, parseOperatorConfig } from "../../../app/operator-config";
import { TEMPLATES } from "../../../app/registry";
import { synthTemplates } from "../../../app/synth";
import { TerraformError, TerraformHarness } from "@coder-cdktf/terraform-harness";
import { thrownMessage } from "../../support/thrown-message";
import {
  REQUIRED_VARIABLES,
  synthPackerBuilder,
  TOKEN_SECRET_FIXTURES,
  type SynthesizedPackerBuilder,
} from "./synthesized-template";

const HTTP_CA = "http://pki.example.com/ca.pem";
const PIN = "3f".repeat(32);
const PIN_REQUIREMENT = "ca_url must be an https:// URL unless ca_sha256 pins the CA";

describe("packer-builder CA pinning", () => {
  let tf: TerraformHarness;
  let template: SynthesizedPackerBuilder;
  const scratch: string[] = [];

  beforeAll(async () => {
    template = synthPackerBuilder();
    tf = await TerraformHarness.start();
  }, 60_000);
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
    scratch.forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
  });

  /** The error diagnostics of a plan Terraform refuses, `summary: detail`. */
  async function refusal(variables: Record<string, unknown>): Promise<string[]> {
    const error = await tf.plan(template.dir, { variables }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TerraformError);
    return (error as TerraformError).diagnostics
      .filter((d) => d.severity === "error")
      .map((d) => `${d.summary}: ${d.detail}`);
  }

  it("refuses a plain-http ca_url without ca_sha256 when Terraform plans", async () => {
    const errors = await refusal({ ...REQUIRED_VARIABLES, ca_url: HTTP_CA });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^Resource precondition failed: /);
    expect(errors[0]).toContain(PIN_REQUIREMENT);
  }, 60_000);

  it("refuses a ca_sha256 that is not a SHA-256", async () => {
    const errors = await refusal({ ...REQUIRED_VARIABLES, ca_sha256: "not-a-digest" });
    expect(errors).toEqual([
      expect.stringContaining(
        'Invalid value for variable: ca_sha256 must be "" or a SHA-256 digest (64 hexadecimal digits).',
      ),
    ]);
  }, 60_000);

  it.each([
    ["https without a pin", { ca_url: "https://pki.example.com/ca.pem" }],
    ["plain http with a pin", { ca_url: HTTP_CA, ca_sha256: PIN }],
  ])(
    "plans %s",
    async (_what, ca) => {
      const plan = await tf.plan(template.dir, { variables: { ...REQUIRED_VARIABLES, ...ca } });
      expect(plan.resource("kubernetes_deployment_v1.main[0]").actions).toEqual(["create"]);
    },
    60_000,
  );

  it("hands the pin to the bootstrap as BOOTSTRAP_CA_SHA256", async () => {
    const applied = await tf.apply(template.dir, {
      variables: { ...REQUIRED_VARIABLES, ca_url: HTTP_CA, ca_sha256: PIN },
      fixtures: { resources: TOKEN_SECRET_FIXTURES },
    });
    const deployment = applied.resources.find(
      (r) => r.address === "kubernetes_deployment_v1.main[0]",
    );
    const spec = deployment?.values.spec as any;
    const script: string = spec[0].template[0].spec[0].container[0].command[2];
    expect(script).toContain(`BOOTSTRAP_CA_URL='${HTTP_CA}'\nBOOTSTRAP_CA_SHA256='${PIN}'\n`);
  }, 60_000);

  /** Synthesizes packer-builder with `variables` as the operator's defaults (deploy.jsonc). */
  function synthWith(variables: Record<string, unknown>) {
    const text = `{ "templates": { "packer-builder": { "variables": {\n  ${Object.entries(variables)
      .map(([k, v]) => `"${k}": ${JSON.stringify(v)}`)
      .join(",\n  ")} } } } }`;
    const config = parseOperatorConfig(
      text,
      "deploy.jsonc",
      TEMPLATES.map((t) => t.id),
    );
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "ca-pinning-"));
    scratch.push(outdir);
    return synthTemplates({ outdir, config });
  }

  it("fails synth on an operator's plain-http ca_url without ca_sha256, at the value", () => {
    expect(thrownMessage(ConfigError, () => synthWith({ ca_url: HTTP_CA }))).toBe(
      `deploy.jsonc:2:13: templates.packer-builder.variables.ca_url: "${HTTP_CA}" is not allowed; ` +
        "ca_url must be an https:// URL unless ca_sha256 pins the CA (plain http could plant a root CA)",
    );
  });

  it("synthesizes an operator's plain-http ca_url with ca_sha256 as defaults", () => {
    const [built] = synthWith({ ca_url: HTTP_CA, ca_sha256: PIN });
    const variables = built.model.variable as Record<string, { default?: unknown }>;
    expect(variables.ca_url.default).toBe(HTTP_CA);
    expect(variables.ca_sha256.default).toBe(PIN);
  });
});

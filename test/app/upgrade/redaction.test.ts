/**
 * app/upgrade/redact.ts (issue 43.4): plan-upgrade and push --check-upgrade print no
 * credential. A token-shaped value in each field that can be echoed (a refused parameter,
 * a sensitive variable, a parameter that may hold secrets, the state's sensitive attributes,
 * Terraform's diagnostics that quote them, the JSON report) comes out as `***`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { TerraformHarness } from "@coder-cdktf/terraform-harness";
import { synthTemplates } from "../../../app/synth";
import { planUpgrade, type UpgradeReport } from "../../../app/upgrade/plan-upgrade";
import { redact, sensitiveVariableValues, stateSecrets } from "../../../app/upgrade/redact";
import { renderUpgradeJson, renderUpgradeText } from "../../../app/upgrade/render-upgrade";
import { TEMPLATE_INPUTS } from "../../prebuilds/template-inputs";
import { stateFile } from "../../upgrade/states/state-cases";

jest.setTimeout(180_000);

/** Token-shaped values, one per field; none may reach any output. */
const GITHUB_TOKEN = "ghp_R3fus3dV4lu3T0k3nAbCdEfGhIjKlMnOpQrSt";
const URL_PASSWORD = "s3cr3t-url-password-8d1f";
const VARIABLE_TOKEN = "git-template-token-41c9e0a7";
const LOCAL_ENV_TOKEN = "local-env-api-token-5e2b";
const EPHEMERAL_TOKEN = "ephemeral-one-time-code-77aa";
const JWT = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQifQ.c2lnbmF0dXJlLWJ5dGVz";

describe("redact", () => {
  it.each([
    [
      "an http(s) URL's user part",
      `https://x:${GITHUB_TOKEN}@github.com/a/b`,
      "https://***@github.com/a/b",
    ],
    ["a token as the user", `https://${GITHUB_TOKEN}@github.com/a/b`, "https://***@github.com/a/b"],
    ["another scheme's password", `ssh://git:${URL_PASSWORD}@host/a`, "ssh://git:***@host/a"],
    ["a bare GitHub token", `token ${GITHUB_TOKEN} refused`, "token *** refused"],
    ["a GitLab token", "glpat-abcdefghijklmnopqrstuvwx", "***"],
    ["a JWT", `Bearer ${JWT}`, "Bearer ***"],
  ])("masks %s", (_, text, shown) => {
    expect(redact(text)).toBe(shown);
  });

  it("masks each secret as written, as Terraform quotes it, and each of its lines", () => {
    const secret = `A=1\nAPI_TOKEN=${LOCAL_ENV_TOKEN}\n`;
    expect(redact(`value "A=1\\nAPI_TOKEN=${LOCAL_ENV_TOKEN}\\n" refused`, [secret])).toBe(
      'value "***" refused',
    );
    expect(redact(`line API_TOKEN=${LOCAL_ENV_TOKEN}`, [secret])).toBe("line ***");
    // Short values ("false", "1") are no secrets worth masking words for.
    expect(redact("false is 1", ["false", "1"])).toBe("false is 1");
  });
});

describe("what is secret", () => {
  const state = JSON.parse(fs.readFileSync(stateFile("devcontainer"), "utf8"));

  it("reads the state's sensitive attributes, by schema and by the state's record, and the parameters that may hold secrets", () => {
    const copy = structuredClone(state);
    for (const r of copy.resources) {
      if (r.type !== "coder_parameter") continue;
      const a = r.instances[0].attributes;
      if (a.name === "devcontainer_variables") a.value = `API_TOKEN=${LOCAL_ENV_TOKEN}`;
      if (a.name === "rebuild") Object.assign(a, { ephemeral: true, value: EPHEMERAL_TOKEN });
    }
    const agent = copy.resources.find((r: any) => r.type === "kubernetes_deployment_v1");
    agent.instances[0].sensitive_attributes = [[{ type: "get_attr", value: "id" }]];
    const secrets = stateSecrets(copy, ["devcontainer_variables"]);
    expect(secrets).toEqual(
      expect.arrayContaining([
        "fixture-session-token",
        `API_TOKEN=${LOCAL_ENV_TOKEN}`,
        EPHEMERAL_TOKEN,
        agent.instances[0].attributes.id,
      ]),
    );
    // Not the parameters that hold none.
    expect(secrets).not.toContain("https://github.com/acme/app.git");
  });

  it("reads the template variables declared sensitive", () => {
    const config = {
      variable: { git_credentials_token: { sensitive: true }, namespace: { default: "ns" } },
    };
    expect(
      sensitiveVariableValues(config, { git_credentials_token: VARIABLE_TOKEN, namespace: "x" }),
    ).toEqual([VARIABLE_TOKEN]);
  });
});

describe("plan-upgrade on a workspace whose values are refused", () => {
  let harness: TerraformHarness;
  let outdir: string;
  let report: UpgradeReport;
  beforeAll(async () => {
    harness = await TerraformHarness.start();
    outdir = fs.mkdtempSync(path.join(os.tmpdir(), "redaction-"));
    const [template] = synthTemplates({ outdir, only: ["devcontainer"] });
    expect(template.secretParameters).toEqual(["devcontainer_variables"]);
    const state = JSON.parse(fs.readFileSync(stateFile("devcontainer"), "utf8"));
    for (const r of state.resources) {
      if (r.type !== "coder_parameter") continue;
      const a = r.instances[0].attributes;
      // Values an older version took: today's validation refuses them, quoting them.
      if (a.name === "repository") a.value = `https://x:${GITHUB_TOKEN}@github.com/acme/app.git`;
      if (a.name === "branch") a.value = `main\n${JWT}`;
      if (a.name === "devcontainer_variables") a.value = `API_TOKEN=${LOCAL_ENV_TOKEN}`;
    }
    const variables = {
      ...TEMPLATE_INPUTS.find((t) => t.id === "devcontainer")!.options.variables,
      git_credentials_token: VARIABLE_TOKEN,
      git_credentials_username: "ci-bot",
    };
    report = await planUpgrade(
      template,
      [{ source: "alice/app", read: async () => JSON.stringify(state) }],
      { variables, harness },
    );
  });
  afterAll(async () => {
    await harness?.stop();
    fs.rmSync(outdir, { recursive: true, force: true });
  });

  it("names the refused value in the error, its credentials masked", () => {
    const [w] = report.workspaces;
    expect("error" in w && w.error).toContain(
      '(value "https://***@github.com/acme/app.git" does not match',
    );
  });

  it.each([
    ["the text report", () => renderUpgradeText(report)],
    ["the JSON report", () => renderUpgradeJson(report)],
  ])("%s holds no token", (_, render) => {
    const text = render();
    for (const secret of [
      GITHUB_TOKEN,
      JWT,
      VARIABLE_TOKEN,
      LOCAL_ENV_TOKEN,
      "fixture-session-token",
    ])
      expect(text).not.toContain(secret);
    expect(text).toContain("***");
  });
});

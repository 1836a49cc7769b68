/**
 * Git credentials for the image build (docs/security.md, "Secrets"): the template-wide token
 * and the user's external auth token reach exactly one place, the build's sensitive
 * `git_credentials`, and rotating them never rebuilds (ignore_changes).
 */
import {
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
import { planOccurrences } from "./plan-occurrences";

jest.setTimeout(120_000);

const TEMPLATE_TOKEN = "git-template-token-4f1e9a";
const ROTATED_TOKEN = "git-template-token-rotated-77b0";
const EXTERNAL_AUTH_TOKEN = "git-external-auth-token-c3d2";

describe("devcontainer template: git credentials", () => {
  let tf: TerraformHarness;
  let template: SynthesizedDevcontainer;
  let buildAddress: string;
  const base: PlanOptions = {
    variables: REQUIRED_VARIABLES,
    parameters: { repository: REPOSITORY },
    fixtures: devcontainerFixtures(metadata()),
  };
  const withTemplateToken = (token: string, repository = REPOSITORY): PlanOptions => ({
    ...base,
    parameters: { repository },
    variables: {
      ...REQUIRED_VARIABLES,
      git_credentials_username: "ci-bot",
      git_credentials_token: token,
      git_credentials_hosts: ["github.com", "gitea.git.svc.cluster.local:3000"],
    },
  });
  const withExternalAuth = (repository: string, host = "github.com"): PlanOptions => {
    const fixtures = devcontainerFixtures(metadata());
    return {
      ...base,
      parameters: { repository },
      variables: { ...REQUIRED_VARIABLES, external_auth_id: "github", external_auth_host: host },
      fixtures: {
        ...fixtures,
        data_sources: {
          ...fixtures.data_sources,
          coder_external_auth: { access_token: EXTERNAL_AUTH_TOKEN },
        },
      },
    };
  };

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
    const plan = await tf.plan(template.dir, withExternalAuth(REPOSITORY));
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

  // Issue 32 item 1: each credential goes only to the host it belongs to, compared exactly on
  // the normalized host (lib/devcontainer/git-hosts.ts).
  describe("credentials bound to their hosts", () => {
    const credentials = (plan: PlanResult) =>
      plan.resource(buildAddress).after.git_credentials ?? null;
    const hostWarnings = (plan: PlanResult) =>
      plan.checkFailures().filter((m) => m.includes("none of the template's git credentials"));

    // The same host, written as DNS and URLs allow: case, one trailing dot, the default port.
    it.each([
      "https://github.com/acme/app.git",
      "https://GitHub.COM/acme/app.git",
      "https://github.com./acme/app.git",
      "https://github.com:443/acme/app.git",
      "https://github.com",
      "http://gitea.git.svc.cluster.local:3000/acme/app.git",
    ])("sends the template-wide token with %s", async (repository) => {
      const plan = await tf.plan(template.dir, withTemplateToken(TEMPLATE_TOKEN, repository));
      expect(credentials(plan)).toEqual({ username: "ci-bot", token: TEMPLATE_TOKEN });
      expect(hostWarnings(plan)).toEqual([]);
    });

    it.each([
      ["another host", "https://gitlab.com/acme/app.git", "host gitlab.com"],
      [
        "a look-alike suffix",
        "https://github.com.evil.net/acme/app.git",
        "host github.com.evil.net",
      ],
      ["the host in the path", "https://evil.net/github.com/acme/app.git", "host evil.net"],
      [
        "the host after a fragment's @",
        "https://evil.net#@github.com/acme/app.git",
        "host evil.net",
      ],
      [
        "uppercase look-alike",
        "https://GITHUB.COM.EVIL.NET/acme/app.git",
        "host github.com.evil.net",
      ],
      ["another port", "https://github.com:8443/acme/app.git", "host github.com:8443"],
      ["an IDN", "https://gïthub.com/acme/app.git", "no https host"],
      ["its punycode", "https://xn--gthub-n4a.com/acme/app.git", "host xn--gthub-n4a.com"],
      ["fullwidth letters", "https://ｇｉｔｈｕｂ.com/acme/app.git", "no https host"],
      // Terraform normalizes strings to NFC, which makes the Kelvin sign a K: the host compared
      // is the one the service receives.
      ["the Kelvin sign for K", "https://\u212Aorp.example/acme/app.git", "host korp.example"],
      ["two trailing dots", "https://github.com../acme/app.git", "host github.com."],
      ["scp-style ssh", "git@github.com:acme/app.git", "no https host"],
      ["an ssh:// URL", "ssh://git@github.com/acme/app.git", "no https host"],
      [
        "an in-cluster host not listed",
        "http://gitea.other.svc/acme/app.git",
        "host gitea.other.svc",
      ],
    ])(
      "sends no credentials with %s (%s), and the build log says why",
      async (_, repository, shown) => {
        const plan = await tf.plan(template.dir, withTemplateToken(TEMPLATE_TOKEN, repository));
        expect(credentials(plan)).toBeNull();
        expect(planOccurrences(plan, TEMPLATE_TOKEN)).toEqual([]);
        const [warning, ...more] = hostWarnings(plan);
        expect(more).toEqual([]);
        expect(warning).toContain(`The repository has ${shown}`);
        expect(warning).toContain(
          "git_credentials_hosts: github.com, gitea.git.svc.cluster.local:3000",
        );
        expect(warning).not.toContain(TEMPLATE_TOKEN);
      },
    );

    it("sends the external auth token only to external_auth_host", async () => {
      const right = await tf.plan(
        template.dir,
        withExternalAuth("https://github.com/acme/app.git"),
      );
      expect(credentials(right)).toEqual({ username: "oauth2", token: EXTERNAL_AUTH_TOKEN });
      for (const repository of [
        "https://github.com.evil.net/acme/app.git",
        "https://evil.net/github.com/acme/app.git",
        "git@github.com:acme/app.git",
      ]) {
        const wrong = await tf.plan(template.dir, withExternalAuth(repository));
        expect(credentials(wrong)).toBeNull();
        expect(hostWarnings(wrong)).toHaveLength(1);
      }
      // No host named: the token is sent nowhere.
      const unnamed = await tf.plan(template.dir, withExternalAuth(REPOSITORY, ""));
      expect(credentials(unnamed)).toBeNull();
      expect(hostWarnings(unnamed)[0]).toContain("external_auth_host: none");
    });

    it("sends the template-wide token nowhere while git_credentials_hosts is empty", async () => {
      const options = withTemplateToken(TEMPLATE_TOKEN);
      const plan = await tf.plan(template.dir, {
        ...options,
        variables: { ...options.variables, git_credentials_hosts: [] },
      });
      expect(credentials(plan)).toBeNull();
      expect(hostWarnings(plan)[0]).toContain("git_credentials_hosts: none");
    });

    it.each([
      ["a user part", "https://github.com@evil.net/acme/app.git"],
      ["a token as user", "https://ghp_0123456789abcdef@github.com/acme/app.git"],
      ["user and password", "https://ci:secret@github.com/acme/app.git"],
      ["a backslash before @", "https://github.com\\@evil.net/acme/app.git"],
      ["plain http outside the cluster", "http://github.com/acme/app.git"],
      ["no scheme", "evil.net/github.com/acme/app.git"],
      ["another scheme", "ftp://github.com/acme/app.git"],
      ["a password over ssh", "ssh://git:secret@github.com/acme/app.git"],
    ])(
      "refuses a repository with %s, with a message that says what to give",
      async (_, repository) => {
        await expect(
          tf.plan(template.dir, withTemplateToken(TEMPLATE_TOKEN, repository)),
        ).rejects.toThrow(/The repository must be an https:\/\/ URL/);
      },
    );

    it("refuses host entries that are not in the normalized form, at push time", async () => {
      for (const hosts of [
        ["GitHub.com"],
        ["github.com."],
        ["https://github.com"],
        ["github.com/x"],
      ]) {
        const options = withTemplateToken(TEMPLATE_TOKEN);
        await expect(
          tf.plan(template.dir, {
            ...options,
            variables: { ...options.variables, git_credentials_hosts: hosts },
          }),
        ).rejects.toThrow(/git_credentials_hosts must be a list of a host name in lowercase ASCII/);
      }
    });
  });
});

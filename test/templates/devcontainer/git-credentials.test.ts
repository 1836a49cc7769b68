/**
 * Git credentials for the image build (docs/security.md, "Secrets"): the template-wide token
 * and the user's external auth token reach exactly one place, the build's sensitive
 * `git_credentials`, and rotating them never rebuilds (ignore_changes). The user's own token
 * wins; the template's is used only with allow_template_git_token_fallback (issue 43.1).
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
      allow_template_git_token_fallback: true,
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

  // Issue 43 item 1: the template's token reads every repository the organization's account
  // can; handed to any user's build, it let them build (and read) what their own cannot.
  describe("the user's own token first, the template's only when allowed", () => {
    const both = (allow: boolean | undefined): PlanOptions => {
      const template = withTemplateToken(TEMPLATE_TOKEN);
      const external = withExternalAuth(REPOSITORY);
      const variables: Record<string, unknown> = {
        ...template.variables,
        ...external.variables,
        allow_template_git_token_fallback: allow,
      };
      if (allow === undefined) delete variables.allow_template_git_token_fallback;
      return { ...external, variables };
    };
    const templateOnly = (allow: boolean | undefined): PlanOptions => {
      const options = withTemplateToken(TEMPLATE_TOKEN);
      const variables: Record<string, unknown> = {
        ...options.variables,
        allow_template_git_token_fallback: allow,
      };
      if (allow === undefined) delete variables.allow_template_git_token_fallback;
      return { ...options, variables };
    };
    const credentials = (plan: PlanResult) =>
      plan.resource(buildAddress).after.git_credentials ?? null;
    const shown = (plan: PlanResult): string => {
      const items = plan.resource("coder_metadata.pod_info[0]").after.item as {
        key: string;
        value: string;
      }[];
      return items.find((i) => i.key === "Build git credential")!.value;
    };
    const fallbackWarnings = (plan: PlanResult) =>
      plan.checkFailures().filter((m) => m.includes("allow_template_git_token_fallback"));
    /** No token value anywhere but the build's sensitive input and Coder's own data source. */
    const expectOnlyInBuild = (plan: PlanResult) => {
      for (const token of [TEMPLATE_TOKEN, EXTERNAL_AUTH_TOKEN]) {
        const places = planOccurrences(plan, token);
        expect(places.filter((o) => !o.sensitive)).toEqual([]);
        expect(
          places
            .map((o) => o.place)
            .filter((p) => !p.startsWith("data.coder_external_auth.git[0]"))
            .filter((p) => p !== `${buildAddress}.git_credentials.token`),
        ).toEqual([]);
      }
      const messages = JSON.stringify([plan.checkFailures(), plan.warnings]);
      expect(messages).not.toContain(TEMPLATE_TOKEN);
      expect(messages).not.toContain(EXTERNAL_AUTH_TOKEN);
    };

    it.each([
      ["off (the default)", undefined],
      ["on", true],
    ])(
      "with both for the host and the fallback %s, the build gets the user's token",
      async (_, allow) => {
        const plan = await tf.plan(template.dir, both(allow));
        expect(credentials(plan)).toEqual({ username: "oauth2", token: EXTERNAL_AUTH_TOKEN });
        expect(planOccurrences(plan, TEMPLATE_TOKEN)).toEqual([]);
        expect(shown(plan)).toBe("your linked github account");
        expect(fallbackWarnings(plan)).toEqual([]);
        expectOnlyInBuild(plan);
      },
    );

    it("with only the template's token and the fallback off (the default), the build gets none and says why", async () => {
      const plan = await tf.plan(template.dir, templateOnly(undefined));
      expect(credentials(plan)).toBeNull();
      expect(planOccurrences(plan, TEMPLATE_TOKEN)).toEqual([]);
      expect(shown(plan)).toBe("none");
      const [warning, ...more] = fallbackWarnings(plan);
      expect(more).toEqual([]);
      expect(warning).toContain("you have no linked account for github.com");
      expect(warning).toContain("allow_template_git_token_fallback, which is off");
      expectOnlyInBuild(plan);
    });

    it("with an unlinked account, the template's token and the fallback off, the build gets none", async () => {
      const options = both(false);
      const fixtures = devcontainerFixtures(metadata());
      const plan = await tf.plan(template.dir, {
        ...options,
        fixtures: {
          ...fixtures,
          data_sources: { ...fixtures.data_sources, coder_external_auth: { access_token: "" } },
        },
      });
      expect(credentials(plan)).toBeNull();
      expect(shown(plan)).toBe("none");
      expect(fallbackWarnings(plan)).toHaveLength(1);
    });

    it("with only the template's token and the fallback on, the build gets the template's token", async () => {
      const plan = await tf.plan(template.dir, templateOnly(true));
      expect(credentials(plan)).toEqual({ username: "ci-bot", token: TEMPLATE_TOKEN });
      expect(shown(plan)).toBe("the template's token for github.com");
      expect(fallbackWarnings(plan)).toEqual([]);
      expectOnlyInBuild(plan);
    });

    it("keeps showing what the image was built with until a Rebuild", async () => {
      const applied = await tf.apply(template.dir, templateOnly(true));
      // The user links their account later: the build keeps its credentials (ignore_changes),
      // and so does the record of them, until the next Rebuild.
      const later = await tf.plan(template.dir, { ...both(true), state: applied });
      expect(later.resource(buildAddress).actions).toEqual(["no-op"]);
      expect(later.resource("terraform_data.git_credential").actions).toEqual(["no-op"]);
      expect(shown(later)).toBe("the template's token for github.com");
      const rebuilt = await tf.plan(template.dir, {
        ...both(true),
        parameters: { ...both(true).parameters, rebuild: "1" },
        state: applied,
      });
      expect(rebuilt.resource(buildAddress).actions).toEqual(["delete", "create"]);
      expect(rebuilt.resource("terraform_data.git_credential").actions).toEqual([
        "delete",
        "create",
      ]);
      expect(credentials(rebuilt)).toEqual({ username: "oauth2", token: EXTERNAL_AUTH_TOKEN });
    });
  });
});

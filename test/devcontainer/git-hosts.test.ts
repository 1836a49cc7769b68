/**
 * lib/devcontainer/git-hosts.ts: the host a repository URL names (as Terraform computes it),
 * the operator's host entries, and the repository parameter's pattern, which Coder checks
 * with Go's RE2 and the harness's mock with JavaScript: both must agree with Terraform.
 * The whole template is planned with these in test/templates/devcontainer/git-credentials.test.ts.
 */
import { TerraformOutput, TerraformVariable } from "../../lib/core/cdk";
import { Expr, hcl } from "../../lib/core/expr";
import {
  GIT_HOST,
  GIT_HOST_LIST,
  REPOSITORY_URL_PATTERN,
  repositoryCredentialHost,
} from "../../lib/devcontainer/git-hosts";
import { planExpressions } from "@coder-cdktf/terraform-harness";

jest.setTimeout(60_000);

/** URL → the normalized host credentials may be sent to ("" for none). */
const HOSTS: [string, string][] = [
  ["https://github.com/acme/app.git", "github.com"],
  ["HTTPS://GitHub.COM/acme/app.git", "github.com"],
  ["https://github.com./acme/app.git", "github.com"],
  ["https://github.com:443/acme/app.git", "github.com"],
  ["https://github.com:0443/acme/app.git", "github.com"],
  ["https://github.com:8443/acme/app.git", "github.com:8443"],
  ["https://github.com?x", "github.com"],
  ["https://github.com", "github.com"],
  ["https://github.com.evil.net/acme/app.git", "github.com.evil.net"],
  ["https://evil.net/github.com", "evil.net"],
  ["https://github.com@evil.net/acme/app.git", ""],
  ["https://ghp_x@github.com/acme/app.git", ""],
  ["https://github.com\\@evil.net/acme/app.git", ""],
  ["https://github.com%2f@evil.net/", ""],
  ["https://[::1]/acme/app.git", ""],
  ["https://gïthub.com/acme/app.git", ""],
  ["https://xn--gthub-n4a.com/acme/app.git", "xn--gthub-n4a.com"],
  ["https://github.com /acme", ""],
  ["http://github.com/acme/app.git", ""],
  ["http://gitea.git.svc:80/acme/app.git", "gitea.git.svc"],
  ["http://gitea.git.svc.cluster.local:3000/a.git", "gitea.git.svc.cluster.local:3000"],
  ["git@github.com:acme/app.git", ""],
  ["ssh://git@github.com/acme/app.git", ""],
  ["", ""],
];

it("normalizes a repository's host exactly as the file comment says, in Terraform", async () => {
  const plan = await planExpressions(
    (stack) => {
      HOSTS.forEach((_, i) => {
        const v = new TerraformVariable(stack, `u${i}`, { type: "string" });
        new TerraformOutput(stack, `h${i}`, {
          value: repositoryCredentialHost(Expr.of<string>(v.stringValue)),
        });
      });
    },
    Object.fromEntries(HOSTS.map(([url], i) => [`u${i}`, url])),
  );
  const got = HOSTS.map(([url], i) => [url, plan.values[`h${i}`]]);
  expect(got).toEqual(HOSTS);
});

describe("GIT_HOST", () => {
  it.each(["github.com", "git.example.com:8443", "xn--gthub-n4a.com", "gitea.git.svc"])(
    "accepts %j",
    (host) => expect(GIT_HOST.test(host)).toBe(true),
  );
  it.each([
    "GitHub.com",
    "github.com.",
    "https://github.com",
    "github.com/acme",
    "user@github.com",
    "gïthub.com",
    "github.com:0443",
    "",
    "-a.com",
  ])("refuses %j", (host) => expect(GIT_HOST.test(host)).toBe(false));
});

/** Repository values the parameter accepts and refuses. */
const GOOD_REPOSITORIES = [
  "https://github.com/acme/app.git",
  "https://github.com:8443/acme/app.git",
  "https://gïthub.com/acme/app.git",
  "https://git.example.com/acme/app&url=x",
  "http://gitea.git.svc/acme/app.git",
  "http://gitea.git.svc.cluster.local:3000/acme/app.git",
  "ssh://git@github.com/acme/app.git",
  "ssh://github.com:22/acme/app.git",
  "git@github.com:acme/app.git",
  "github.com:acme/app.git",
];
const BAD_REPOSITORIES = [
  "https://github.com@evil.net/acme/app.git",
  "https://ci:token@github.com/acme/app.git",
  "https://github.com\\@evil.net/",
  "https://[::1]/x",
  "http://github.com/acme/app.git",
  "http://gitea/acme/app.git",
  "ssh://git:secret@github.com/acme/app.git",
  "evil.net/github.com/acme/app.git",
  "ftp://github.com/acme/app.git",
  "https://github.com /x",
  "",
];

it("the repository pattern says the same in JavaScript and in Terraform's RE2 (Coder's Go)", async () => {
  const values = [...GOOD_REPOSITORIES, ...BAD_REPOSITORIES];
  const js = values.map((v) => new RegExp(REPOSITORY_URL_PATTERN).test(v));
  expect(js).toEqual(values.map((v) => GOOD_REPOSITORIES.includes(v)));
  const plan = await planExpressions(
    (stack) => {
      values.forEach((_, i) => {
        const v = new TerraformVariable(stack, `r${i}`, { type: "string" });
        new TerraformOutput(stack, `ok${i}`, {
          value: hcl`can(regex(${REPOSITORY_URL_PATTERN}, ${v.stringValue}))`,
        });
      });
    },
    Object.fromEntries(values.map((v, i) => [`r${i}`, v])),
  );
  expect(values.map((_, i) => plan.values[`ok${i}`])).toEqual(js);
});

it("GIT_HOST_LIST: Terraform's validation agrees with the TypeScript test", async () => {
  const lists = [[], ["github.com", "git.example.com:8443"], ["GitHub.com"], ["github.com", "x/"]];
  const plan = await planExpressions(
    (stack) => {
      lists.forEach((_, i) => {
        const v = new TerraformVariable(stack, `l${i}`, { type: "list(string)" });
        new TerraformOutput(stack, `ok${i}`, {
          value: GIT_HOST_LIST.condition!(v.listValue as never),
        });
      });
    },
    Object.fromEntries(lists.map((l, i) => [`l${i}`, l])),
  );
  expect(lists.map((_, i) => plan.values[`ok${i}`])).toEqual(
    lists.map((l) => GIT_HOST_LIST.test(l)),
  );
  expect(lists.map((l) => GIT_HOST_LIST.test(l))).toEqual([true, true, false, false]);
});

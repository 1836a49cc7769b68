/**
 * DevcontainerGitCredentials: what the image build clones with. The user's external-auth token as
 * `oauth2` wins, then the template-wide account only when the fallback is allowed, else none;
 * external auth is read only when configured. (The template's plan tests hold the behaviour.)
 */
import { TerraformOutput, TerraformVariable } from "../../../lib/core/cdk";
import { Expr } from "../../../lib/core/expr";
import { coderProvider } from "../../../lib/constructs/providers";
import { DevcontainerGitCredentials } from "../../../lib/devcontainer/git-credentials";
import { synthConstruct, type TerraformJson } from "../construct-stack";

let tf: TerraformJson;
beforeAll(() => {
  tf = synthConstruct((stack) => {
    coderProvider(stack);
    const git = new DevcontainerGitCredentials(stack, "git", {
      externalAuthId: new TerraformVariable(stack, "external_auth_id", { type: "string" }),
      username: new TerraformVariable(stack, "git_credentials_username", { type: "string" }),
      token: new TerraformVariable(stack, "git_credentials_token", {
        type: "string",
        sensitive: true,
      }),
      hosts: new TerraformVariable(stack, "git_credentials_hosts", { type: "list(string)" }),
      externalAuthHost: new TerraformVariable(stack, "external_auth_host", { type: "string" }),
      allowTemplateFallback: new TerraformVariable(stack, "allow_template_git_token_fallback", {
        type: "bool",
      }),
      repository: Expr.of<string>("${var.repository}"),
    });
    new TerraformOutput(stack, "credentials", { value: git.buildCredentials, sensitive: true });
  });
});

it("reads data.coder_external_auth.git only when external_auth_id is set", () => {
  expect(tf.data.coder_external_auth.git).toEqual({
    count: '${var.external_auth_id != "" ? 1 : 0}',
    id: "${var.external_auth_id}",
  });
});

it("chooses the linked token first, the template-wide one only when allowed, else none", () => {
  const chosen: string = tf.locals.git_build_credential;
  const linked = chosen.indexOf('"user"');
  const template = chosen.indexOf('var.allow_template_git_token_fallback ? "template"');
  expect(linked).toBeGreaterThanOrEqual(0);
  expect(template).toBeGreaterThan(linked);
  expect(chosen).toContain('"template_refused"');
  const expression: string = tf.output.credentials.value;
  expect(expression).toContain(
    '{ username = "oauth2", token = data.coder_external_auth.git[0].access_token }',
  );
  expect(expression).toContain(
    "{ username = var.git_credentials_username, token = var.git_credentials_token }",
  );
  expect(expression.indexOf('== "user"')).toBeLessThan(expression.indexOf('== "template"'));
  expect(expression).toMatch(/: null\}$/);
});

/**
 * DevcontainerGitCredentials: what the image build clones with. The template-wide account wins, then the
 * user's external-auth token as `oauth2`, else none; external auth is read only when configured.
 */
import { TerraformOutput, TerraformVariable } from "../../../lib/core/cdk";
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
      repository: "${var.repository}",
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

it("prefers the template-wide username and token, then a non-empty linked token as oauth2, else null", () => {
  const expression: string = tf.output.credentials.value;
  const username = expression.indexOf('var.git_credentials_username != ""');
  const linked = expression.indexOf('try(data.coder_external_auth.git[0].access_token, "") != ""');
  expect(username).toBeGreaterThanOrEqual(0);
  expect(linked).toBeGreaterThan(username);
  expect(expression).toContain(
    "{ username = var.git_credentials_username, token = var.git_credentials_token }",
  );
  expect(expression).toContain(
    '{ username = "oauth2", token = data.coder_external_auth.git[0].access_token }',
  );
  expect(expression).toMatch(/: null\}$/);
});

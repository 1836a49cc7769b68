import { Construct, Token, type IResolvable, type TerraformVariable } from "../core/cdk";
import { DataCoderExternalAuth } from "../../.gen/providers/coder/data-coder-external-auth";
import { CheckBlock } from "../core/check-block";
import { hcl } from "../core/hcl";

export interface GitCredentialsProps {
  /** `external_auth_id`: "" means no external auth (Coder then never asks users to link). */
  readonly externalAuthId: TerraformVariable;
  /** `git_credentials_username`: a template-wide account, which wins when set. */
  readonly username: TerraformVariable;
  /** `git_credentials_token` (sensitive). */
  readonly token: TerraformVariable;
  /**
   * `data.coder_workspace.me.is_prebuild`: a prebuild has no user, so only template-wide
   * credentials can build a private repository; without them the build log says so.
   * @default no prebuild warning
   */
  readonly isPrebuild?: boolean | IResolvable;
}

/**
 * The credentials the image build clones with (`git_credentials` of the build):
 *
 * 1. the template-wide username and token, when the username is set;
 * 2. else the user's token from Coder external auth (`data.coder_external_auth.git`,
 *    present only when `external_auth_id` is set), as user `oauth2`, which GitHub and
 *    GitLab accept for OAuth tokens, when there is one: a user who has not linked the
 *    account, and the `prebuilds` user of a prebuilt workspace, have an empty token;
 * 3. else null: the service uses its own per-host credentials or clones anonymously.
 *
 * The service writes the token to a scratch .netrc, never to argv or a URL. The
 * workspace's own clone does not use these: it runs in the pod with the agent's
 * GIT_ASKPASS (https) or `coder gitssh` (ssh).
 */
export class GitCredentials extends Construct {
  public readonly externalAuth: DataCoderExternalAuth;
  /** An object `{ username, token }` or null, for the build's nested attribute. */
  public readonly buildCredentials: IResolvable;

  constructor(scope: Construct, id: string, props: GitCredentialsProps) {
    super(scope, id);
    const authId = props.externalAuthId.stringValue;
    this.externalAuth = new DataCoderExternalAuth(this, "git", {
      count: Token.asNumber(hcl`${authId} != "" ? 1 : 0`),
      id: authId,
    });
    const linked = this.externalAuth.fqn;
    this.buildCredentials = hcl`
      ${props.username.stringValue} != ""
        ? { username = ${props.username.stringValue}, token = ${props.token.stringValue} }
        : try(${linked}[0].access_token, "") != ""
          ? { username = "oauth2", token = ${linked}[0].access_token }
          : null`;
    if (props.isPrebuild !== undefined) {
      // Never references the token: a failed check prints the values of its condition.
      new CheckBlock(this, "prebuild_git_credentials", {
        assertions: [
          {
            condition: hcl`!${props.isPrebuild} || ${props.username.stringValue} != ""`,
            errorMessage:
              "This is a prebuilt workspace: it has no user yet, so the image is built without " +
              "git credentials (git_credentials_username and git_credentials_token are not set). " +
              "A public repository builds as usual; a private one fails until the template has " +
              "those credentials. The clone into the workspace waits for the claim and uses the " +
              "user's own credentials.",
          },
        ],
      });
    }
  }
}

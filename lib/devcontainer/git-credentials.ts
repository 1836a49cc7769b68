import {
  Construct,
  TerraformLocal,
  Token,
  type IResolvable,
  type TerraformVariable,
} from "../core/cdk";
import { DataCoderExternalAuth } from "../../.gen/providers/coder/data-coder-external-auth";
import { CheckBlock } from "../core/check-block";
import { hcl } from "../core/hcl";
import { explainLocal } from "../core/local-comments";
import { NamedLocals } from "../core/named-locals";
import { repositoryCredentialHost } from "./git-hosts";

/** The build-log message when no configured credential is for the repository's host. */
export const HOST_MESSAGE =
  "The repository has %s, and none of the template's git credentials belong to it " +
  "(git_credentials_hosts: %s; external_auth_host: %s), so the image is built without " +
  "credentials: a public repository builds as usual, a private one fails. Credentials are " +
  "only ever sent to the hosts they belong to.";

export interface DevcontainerGitCredentialsProps {
  /** `external_auth_id`: "" means no external auth (Coder then never asks users to link). */
  readonly externalAuthId: TerraformVariable;
  /** `git_credentials_username`: a template-wide account, which wins when set. */
  readonly username: TerraformVariable;
  /** `git_credentials_token` (sensitive). */
  readonly token: TerraformVariable;
  /**
   * `git_credentials_hosts` (list of `host[:port]`): the only hosts the template-wide
   * credentials are sent to.
   */
  readonly hosts: TerraformVariable;
  /** `external_auth_host` (`host[:port]` or ""): the only host the user's external auth token is sent to. */
  readonly externalAuthHost: TerraformVariable;
  /** The `repository` parameter's value: whose host decides which credentials, if any, go. */
  readonly repository: string;
  /**
   * `data.coder_workspace.me.is_prebuild`: a prebuild has no user, so only template-wide
   * credentials can build a private repository; without them the build log says so.
   * @default no prebuild warning
   */
  readonly isPrebuild?: boolean | IResolvable;
}

/**
 * The credentials the image build clones with (`git_credentials` of the build). Each is bound
 * to its host: the service writes them to a .netrc entry for the repository's own host, so a
 * credential sent with a repository elsewhere would go to whoever runs that host. The
 * repository's host is normalized and compared exactly (lib/devcontainer/git-hosts.ts):
 *
 * 1. the template-wide username and token, when the username is set and the repository's
 *    host is one of `git_credentials_hosts`;
 * 2. else the user's token from Coder external auth (`data.coder_external_auth.git`,
 *    present only when `external_auth_id` is set), as user `oauth2`, which GitHub and
 *    GitLab accept for OAuth tokens, when there is one and the repository's host is
 *    `external_auth_host`: a user who has not linked the account, and the `prebuilds` user
 *    of a prebuilt workspace, have an empty token;
 * 3. else null: the service uses its own per-host credentials or clones anonymously. When
 *    credentials are configured but none belongs to the repository's host, the build log
 *    says so (`check.git_credentials_host`).
 *
 * The service writes the token to a scratch .netrc, never to argv or a URL. The
 * workspace's own clone does not use these: it runs in the pod with the agent's
 * GIT_ASKPASS (https) or `coder gitssh` (ssh).
 */
export class DevcontainerGitCredentials extends Construct {
  public readonly externalAuth: DataCoderExternalAuth;
  /** An object `{ username, token }` or null, for the build's nested attribute. */
  public readonly buildCredentials: IResolvable;
  /** `local.git_repository_host`: the repository's normalized `host[:port]`, "" for none. */
  public readonly repositoryHost: TerraformLocal;
  /** `check.git_credentials_host`: credentials are configured, none for this host. */
  public readonly hostCheck: CheckBlock;

  constructor(scope: Construct, id: string, props: DevcontainerGitCredentialsProps) {
    super(scope, id);
    const authId = props.externalAuthId.stringValue;
    const username = props.username.stringValue;
    this.externalAuth = new DataCoderExternalAuth(this, "git", {
      count: Token.asNumber(hcl`${authId} != "" ? 1 : 0`),
      id: authId,
    });
    const linked = this.externalAuth.fqn;
    this.repositoryHost = new TerraformLocal(
      this,
      "git_repository_host",
      repositoryCredentialHost(props.repository, new NamedLocals(this, "")),
    );
    this.repositoryHost.overrideLogicalId("git_repository_host");
    explainLocal(
      this.repositoryHost,
      "Credentials go only to the host they belong to, and over plain http only to a cluster Service.",
    );
    const host = this.repositoryHost.asString;
    // Exact comparison; the variables' rules keep their entries in the normalized form.
    const templateWideHere = hcl`${host} != "" && contains(${props.hosts.listValue}, ${host})`;
    const externalHere = hcl`${host} != "" && ${props.externalAuthHost.stringValue} == ${host}`;
    this.buildCredentials = hcl`
      ${username} != "" && ${templateWideHere}
        ? { username = ${username}, token = ${props.token.stringValue} }
        : ${externalHere} && try(${linked}[0].access_token, "") != ""
          ? { username = "oauth2", token = ${linked}[0].access_token }
          : null`;
    // Never references the token (a failed check prints the values of its condition); the
    // repository appears only as its normalized host, which holds no user part.
    this.hostCheck = new CheckBlock(this, "git_credentials_host", {
      assertions: [
        {
          condition: hcl`(${username} == "" && ${authId} == "") || (${username} != "" && ${templateWideHere}) || (${authId} != "" && ${externalHere})`,
          errorMessage: Token.asString(
            hcl`format(${HOST_MESSAGE}, ${host} == "" ? "no https host the credentials could be for (an ssh or scp-style URL, or one whose host is not plain ASCII)" : format("host %s", ${host}), length(${props.hosts.listValue}) == 0 ? "none" : join(", ", ${props.hosts.listValue}), ${props.externalAuthHost.stringValue} == "" ? "none" : ${props.externalAuthHost.stringValue})`,
          ),
        },
      ],
    });
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

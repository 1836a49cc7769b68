import { Construct, type TerraformVariable } from "../core/cdk";
import { DataCoderExternalAuth } from "../../.gen/providers/coder/data-coder-external-auth";
import { CheckBlock } from "../core/check-block";
import { Expr, hcl } from "../core/expr";
import { NamedLocals } from "../core/named-locals";
import { repositoryCredentialHost } from "./git-hosts";

/** The build-log message when no configured credential is for the repository's host. */
export const HOST_MESSAGE =
  "The repository has %s, and none of the template's git credentials belong to it " +
  "(git_credentials_hosts: %s; external_auth_host: %s), so the image is built without " +
  "credentials: a public repository builds as usual, a private one fails. Credentials are " +
  "only ever sent to the hosts they belong to.";

/**
 * The build-log message when the template has a token for the repository's host but the user
 * has none and the operator has not allowed the template's token (%s: the host).
 */
export const FALLBACK_MESSAGE =
  "The image is built without git credentials: you have no linked account for %s, and the " +
  "template's own token for that host is used only when the operator sets " +
  "allow_template_git_token_fallback, which is off. A public repository builds as usual; a " +
  "private one fails until you link your account in Coder and rebuild.";

/** What the build clones with, as `local.git_build_credential` names it. */
export type GitBuildCredential = "user" | "template" | "template_refused" | "none";

export interface DevcontainerGitCredentialsProps {
  /** `external_auth_id`: "" means no external auth (Coder then never asks users to link). */
  readonly externalAuthId: TerraformVariable;
  /** `git_credentials_username`: a template-wide account, used only as a fallback. */
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
  /**
   * `allow_template_git_token_fallback` (bool): whether the template-wide credentials may be
   * used for a user who has no token of their own for the host. Off, every user builds only
   * what their own account can read.
   */
  readonly allowTemplateFallback: TerraformVariable;
  /** The `repository` parameter's value: whose host decides which credentials, if any, go. */
  readonly repository: Expr<string>;
  /**
   * `data.coder_workspace.me.is_prebuild`: a prebuild has no user, so only template-wide
   * credentials (with the fallback allowed) can build a private repository; without them the
   * build log says so.
   * @default no prebuild warning
   */
  readonly isPrebuild?: Expr<boolean>;
}

/**
 * The credentials the image build clones with (`git_credentials` of the build). Each is bound
 * to its host: the service writes them to a .netrc entry for the repository's own host, so a
 * credential sent with a repository elsewhere would go to whoever runs that host. The
 * repository's host is normalized and compared exactly (lib/devcontainer/git-hosts.ts):
 *
 * 1. the user's own token from Coder external auth (`data.coder_external_auth.git`, present
 *    only when `external_auth_id` is set), as user `oauth2`, which GitHub and GitLab accept
 *    for OAuth tokens, when there is one and the repository's host is `external_auth_host`:
 *    a user who has not linked the account, and the `prebuilds` user of a prebuilt
 *    workspace, have an empty token;
 * 2. else the template-wide username and token, when the username is set, the repository's
 *    host is one of `git_credentials_hosts` **and** `allow_template_git_token_fallback` is on.
 *    The template's token usually reads every repository of the organization: used for any
 *    user, it would let each of them build (and so read) repositories their own account
 *    cannot (issue 43.1). Off, the build log says why the build has no credentials
 *    (`check.git_credentials_fallback`);
 * 3. else null: the service uses its own per-host credentials or clones anonymously. When
 *    credentials are configured but none belongs to the repository's host, the build log
 *    says so (`check.git_credentials_host`).
 *
 * Which one it is, by name and never by value, is `credentialName` (the workspace page shows
 * it). The service writes the token to a scratch .netrc, never to argv or a URL. The
 * workspace's own clone does not use these: it runs in the pod with the agent's
 * GIT_ASKPASS (https) or `coder gitssh` (ssh).
 */
export class DevcontainerGitCredentials extends Construct {
  public readonly externalAuth: DataCoderExternalAuth;
  /** An object `{ username, token }` or null, for the build's nested attribute. */
  public readonly buildCredentials: Expr<unknown>;
  /** `local.git_repository_host`: the repository's normalized `host[:port]`, "" for none. */
  public readonly repositoryHost: Expr<string>;
  /** `local.git_build_credential`: which credential the build gets ({@link GitBuildCredential}). */
  public readonly credential: Expr<string>;
  /**
   * `local.git_build_credential_name`: that credential as the workspace page names it
   * ("your linked github account", "the template's token for github.com", "none"), no value.
   */
  public readonly credentialName: Expr<string>;
  /** `check.git_credentials_host`: credentials are configured, none for this host. */
  public readonly hostCheck: CheckBlock;

  constructor(scope: Construct, id: string, props: DevcontainerGitCredentialsProps) {
    super(scope, id);
    const authId = props.externalAuthId.stringValue;
    const username = props.username.stringValue;
    this.externalAuth = new DataCoderExternalAuth(this, "git", {
      count: hcl<number>`${authId} != "" ? 1 : 0`.asNumber,
      id: authId,
    });
    const locals = new NamedLocals(this, "");
    this.repositoryHost = locals.add<string>(
      "git_repository_host",
      repositoryCredentialHost(props.repository, locals),
      "Credentials go only to the host they belong to, and over plain http only to a cluster Service.",
    );
    const host = this.repositoryHost;
    // Exact comparison; the variables' rules keep their entries in the normalized form.
    const templateWideHere = hcl<boolean>`${host} != "" && contains(${props.hosts.listValue}, ${host})`;
    const externalHere = hcl<boolean>`${host} != "" && ${props.externalAuthHost.stringValue} == ${host}`;
    this.credential = this.chooseCredential(props, templateWideHere, externalHere);
    const chosen = this.credential;
    const linked = this.externalAuth.fqn;
    this.buildCredentials = hcl`
      ${chosen} == "user"
        ? { username = "oauth2", token = ${linked}[0].access_token }
        : ${chosen} == "template"
          ? { username = ${username}, token = ${props.token.stringValue} }
          : null`;
    this.credentialName = locals.add<string>(
      "git_build_credential_name",
      hcl`${chosen} == "user" ? format("your linked %s account", ${authId}) : ${chosen} == "template" ? format("the template's token for %s", ${host}) : "none"`,
      "Says which credential the build has, by name: never a value of it.",
    );
    this.hostCheck = this.checks(props, { host, templateWideHere, externalHere, chosen });
  }

  /**
   * `local.git_build_credential`: the user's own token first; the template's only when the
   * operator allows it. Whether the user has a token is one bit, unwrapped with nonsensitive()
   * so the name, the check and the metadata built on it are not sensitive.
   */
  private chooseCredential(
    props: DevcontainerGitCredentialsProps,
    templateWideHere: Expr<boolean>,
    externalHere: Expr<boolean>,
  ): Expr<string> {
    const linked = this.externalAuth.fqn;
    // The emptiness test carries one bit of the token (the secret-flow scan reads it so).
    const linkedHere = hcl`${externalHere} && try(nonsensitive(${linked}[0].access_token != ""), ${linked}[0].access_token != "", false)`;
    return new NamedLocals(this, "").add<string>(
      "git_build_credential",
      hcl`${linkedHere} ? "user" : ${props.username.stringValue} != "" && ${templateWideHere} ? (${props.allowTemplateFallback.booleanValue} ? "template" : "template_refused") : "none"`,
      "The user's own token wins; the template's reads what the user may not, so only when allowed.",
    );
  }

  /** The build-log checks: no credential for the host, the template's refused, a prebuild's. */
  private checks(
    props: DevcontainerGitCredentialsProps,
    at: {
      readonly host: Expr<string>;
      readonly templateWideHere: Expr<boolean>;
      readonly externalHere: Expr<boolean>;
      readonly chosen: Expr<string>;
    },
  ): CheckBlock {
    const authId = props.externalAuthId.stringValue;
    const username = props.username.stringValue;
    const hosts = props.hosts.listValue;
    const authHost = props.externalAuthHost.stringValue;
    // Never references the token (a failed check prints the values of its condition); the
    // repository appears only as its normalized host, which holds no user part.
    const hostCheck = new CheckBlock(this, "git_credentials_host", {
      assertions: [
        {
          condition: hcl`(${username} == "" && ${authId} == "") || (${username} != "" && ${at.templateWideHere}) || (${authId} != "" && ${at.externalHere})`,
          errorMessage:
            hcl<string>`format(${HOST_MESSAGE}, ${at.host} == "" ? "no https host the credentials could be for (an ssh or scp-style URL, or one whose host is not plain ASCII)" : format("host %s", ${at.host}), length(${hosts}) == 0 ? "none" : join(", ", ${hosts}), ${authHost} == "" ? "none" : ${authHost})`
              .asString,
        },
      ],
    });
    // A prebuild has its own message below.
    const prebuild = props.isPrebuild ?? false;
    new CheckBlock(this, "git_credentials_fallback", {
      assertions: [
        {
          condition: hcl`${at.chosen} != "template_refused" || ${prebuild}`,
          errorMessage: hcl<string>`format(${FALLBACK_MESSAGE}, ${at.host})`.asString,
        },
      ],
    });
    if (props.isPrebuild !== undefined) {
      new CheckBlock(this, "prebuild_git_credentials", {
        assertions: [
          {
            // A template token for another host is check.git_credentials_host's to report.
            condition: hcl`!${props.isPrebuild} || ${at.chosen} == "template" || (${username} != "" && !(${at.templateWideHere}))`,
            errorMessage:
              "This is a prebuilt workspace: it has no user yet, so the image is built without " +
              "git credentials (the template's git_credentials_username and git_credentials_token " +
              "are used for a prebuild only with allow_template_git_token_fallback on, for a " +
              "repository on git_credentials_hosts). A public repository builds as usual; a " +
              "private one fails. The clone into the workspace waits for the claim and uses the " +
              "user's own credentials.",
          },
        ],
      });
    }
    return hostCheck;
  }
}

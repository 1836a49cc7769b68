import { Construct, Token, type IResolvable, type TerraformVariable } from "../core/cdk";
import { DataCoderSecret } from "../../.gen/providers/coder/data-coder-secret";
import { hcl } from "../core/hcl";
import { type Rule } from "../core/validate";
import { VARIABLE_NAME_PATTERN } from "./warnings";

/** A list of names a user secret can be matched by (Coder's and POSIX's environment names). */
export const USER_SECRET_NAMES: Rule = {
  requirement:
    "a list of environment variable names (a letter or _, then letters, digits or _), each once",
  test: (value) =>
    Array.isArray(value) &&
    value.every((v) => typeof v === "string" && new RegExp(VARIABLE_NAME_PATTERN).test(v)) &&
    new Set(value).size === value.length,
  condition: (ref) =>
    hcl`alltrue([for name in ${ref} : can(regex(${VARIABLE_NAME_PATTERN}, name))]) && length(distinct(${ref})) == length(${ref})`,
};

/** The help Coder shows for a user secret the template reads (`%s` is its name). */
export const USER_SECRET_HELP =
  "This template reads your Coder user secret with environment variable %s for " +
  '${localEnv:%s} in devcontainer.json (it wins over a line of the "Dev Container ' +
  'variables" setting). Create it with: coder secret create <name> --env %s';

export interface DevcontainerUserSecretsProps {
  /** `user_secrets` (list(string)): the names the template reads. */
  readonly names: TerraformVariable;
  /**
   * `data.coder_workspace.me.is_prebuild`: a prebuild has no user and so no secrets; Coder
   * would fail its start for each one missing. The claim's build reads them.
   */
  readonly isPrebuild: boolean | IResolvable;
}

/**
 * The user's own secrets for `${localEnv:NAME}` (`data.coder_secret.user`, one per name the
 * operator lists in `user_secrets`; coder provider 2.16 and later): a value a user keeps in
 * Coder rather than in a parameter, which anyone who can see the workspace can read.
 *
 * Coder treats each as a requirement: the create-workspace page lists it with its help, and
 * a start build of a user who has none by that name fails with that help (the provider's
 * "Missing required secret"); stop and delete builds read "" and go on. So the operator lists
 * only the names this template's users are expected to keep. The values go to the workspace's
 * Secret (DevcontainerVariablesSecret), never to the pod spec. A value with a line break cannot
 * be one `NAME=value` line and is not used; nothing names it in the build log, since even which
 * secret holds a line break would be derived from its value: the workspace's "Dev Container
 * variables" item shows the variable unset.
 */
export class DevcontainerUserSecrets extends Construct {
  public readonly secrets: DataCoderSecret;
  /** name → value (sensitive) of the secrets read; values are "" outside a start build. */
  public readonly values: IResolvable;
  /** The names read (not sensitive): none in a prebuild. */
  public readonly names: IResolvable;

  constructor(scope: Construct, id: string, props: DevcontainerUserSecretsProps) {
    super(scope, id);
    this.names = hcl`${props.isPrebuild} ? [] : ${props.names.listValue}`;
    this.secrets = new DataCoderSecret(this, "user", {
      env: "${each.key}",
      helpMessage: Token.asString(hcl`format(${USER_SECRET_HELP}, each.key, each.key, each.key)`),
    });
    this.secrets.addOverride("for_each", hcl`toset(${this.names})`);
    const all = this.secrets.fqn;
    this.values = hcl`{ for name, secret in ${all} : name => secret.value }`;
  }
}

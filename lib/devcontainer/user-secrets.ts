/**
 * The user's own Coder secrets as `${localEnv:NAME}` values (run time).
 *
 * The Dev Containers tools read `localEnv` from the environment of the user's own machine;
 * a workspace's stand-in for that environment is the user's Coder secrets. Each user defines
 * theirs (`coder secret create <name> --env NAME`, or the account's Secrets page), and the
 * agent puts every environment-variable secret into each script, terminal and app it starts.
 * No template declares or reads them (coder provider 2.18.0 removed `data.coder_secret`, and
 * Coder no longer sends secret values to builds), so the value is taken where it arrives: the
 * lifecycle scripts (local-env-secrets.sh) set `DEVCONTAINER_LOCALENV_NAME` from a non-empty
 * `NAME` before they run a hook. The order is the user's secret, then the "Dev Container
 * variables" line, then the default (DevcontainerLocalEnv).
 *
 * The plan cannot see a user's secrets: `user_secrets` lists the names the operator expects
 * users to keep as secrets, which the build log then does not call missing; the "Dev Container
 * variables" metadata item says at run time which names are still unset and how to set each.
 */
import { Construct } from "../core/cdk";
import { type Expr, hcl } from "../core/expr";
import { NamedLocals } from "../core/named-locals";
import { type Rule } from "../core/validate";
import { CONTAINER_LOCALENV_DEFAULTS, HOST_LOCALENV_DEFAULTS } from "./local-env";
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

/**
 * localEnv names a secret never gives: the agent's own HOME, USER, LOGNAME, PATH and SHELL
 * are the container's, and would always win over the user's line.
 */
export const NOT_FROM_SECRETS: readonly string[] = [
  ...HOST_LOCALENV_DEFAULTS,
  ...CONTAINER_LOCALENV_DEFAULTS,
];

export interface DevcontainerUserSecretsProps {
  /** `user_secrets` (list(string)): the names users are expected to keep as secrets. */
  readonly expected: Expr<string[]>;
  /** The data source's `variables` list (`kind`, `name`, `default`, `used_in`); null is none. */
  readonly variables: Expr<unknown[]>;
}

/** Local `localenv_secret_names`: the words of `DC_LOCALENV_SECRET_NAMES`. */
export class DevcontainerUserSecrets extends Construct {
  /** The names the build log never calls missing (`var.user_secrets`). */
  public readonly expectedNames: Expr<string[]>;
  /**
   * The repository's `${localEnv:NAME}` names a secret may give, space-separated: each matches
   * VARIABLE_NAME_PATTERN, so the scripts can expand them in eval; none of NOT_FROM_SECRETS.
   */
  public readonly secretNames: Expr<string>;

  constructor(scope: Construct, id: string, props: DevcontainerUserSecretsProps) {
    super(scope, id);
    this.expectedNames = props.expected;
    const locals = new NamedLocals(this, "");
    const variables = hcl`try(concat(${props.variables}, []), [])`;
    // The names are unmarked one by one (the data source marks its values sensitive) and a
    // name twice is harmless in the scripts' loop, so no distinct() over every pair.
    const localEnvNames = hcl`[for variable in try(nonsensitive(${variables}), ${variables}) :
      tostring(try(nonsensitive(variable.name), variable.name)) if try(variable.kind == "localEnv", false)]`;
    this.secretNames = locals.add<string>(
      "localenv_secret_names",
      hcl`join(" ", [for name in ${localEnvNames} :
        name if can(regex(${VARIABLE_NAME_PATTERN}, name)) && !contains(${NOT_FROM_SECRETS}, name)])`,
      "Names only, each a shell name: the lifecycle scripts take each from the user's secrets.",
    );
  }
}

/**
 * `${localEnv:NAME}` values the workspace gives when the user set none (apply time).
 *
 * The Dev Containers tools read `localEnv` from the machine they run on, which always has
 * HOME, USER, LOGNAME, PATH and SHELL. A workspace has no local host: the user's own values
 * come from the "Dev Container variables" setting, and for those names, when it does not set
 * them, the workspace user's own value is used (`mkdir -p ${localEnv:HOME}/.m2` makes
 * `<home>/.m2`, not `/.m2`). HOME, USER and LOGNAME are known here; PATH and SHELL are the
 * container's, filled in by the pod's wrapper (dev-entrypoint.sh) at start.
 *
 * `local.localenv_defaults` is one map so that other sources of values can be merged into it.
 */
import { Construct } from "../core/cdk";
import { hcl, type HclValue } from "../core/expr";
import { NamedLocals } from "../core/named-locals";

/** localEnv names every host has that the workspace user's own identity stands in for. */
export const HOST_LOCALENV_DEFAULTS: readonly string[] = ["HOME", "USER", "LOGNAME"];

/** localEnv names the pod's wrapper fills in from the container itself (its PATH, the login shell). */
export const CONTAINER_LOCALENV_DEFAULTS: readonly string[] = ["PATH", "SHELL"];

export interface DevcontainerLocalEnvProps {
  /** The remote user's home ({@link DevcontainerWorkspaceUser.homeDir}). */
  readonly homeDir: HclValue;
  /** The remote user's name ({@link DevcontainerWorkspaceUser.remoteUser}). */
  readonly remoteUser: HclValue;
  /** Prefix of the local names, for several instances in one module. @default "" */
  readonly localPrefix?: string;
}

/** Locals (with `localPrefix`): `localenv_defaults`, `localenv_defaults_text`, `localenv_default_names`. */
export class DevcontainerLocalEnv extends Construct {
  /** Local `localenv_defaults`: map(string), NAME → the value used when the user sets none. */
  public readonly values: string;
  /** Local `localenv_defaults_text`: the map as `NAME=value` lines, for the pod's wrapper. */
  public readonly text: string;
  /**
   * Local `localenv_default_names`: every name with a default, the container's included: a
   * repository's `${localEnv:NAME}` of these is never missing.
   */
  public readonly names: string[];

  constructor(scope: Construct, id: string, props: DevcontainerLocalEnvProps) {
    super(scope, id);
    const locals = new NamedLocals(this, props.localPrefix ?? "");
    const values = locals.add(
      "localenv_defaults",
      hcl`{ HOME = ${props.homeDir}, USER = ${props.remoteUser}, LOGNAME = ${props.remoteUser} }`,
      "The Dev Containers tools take ${localEnv:HOME}, USER, LOGNAME from the host: these stand in.",
    );
    this.values = values.asString;
    this.text = locals.add(
      "localenv_defaults_text",
      hcl`join("\n", [for name, value in ${values} : format("%s=%s", name, value)])`,
      "The pod's wrapper reads NAME=value lines: an env var cannot carry a map.",
    ).asString;
    this.names = locals.add(
      "localenv_default_names",
      hcl`distinct(concat(keys(${values}), ${CONTAINER_LOCALENV_DEFAULTS}))`,
      "A ${localEnv:NAME} with a default is never missing: the variables check skips these names.",
    ).asList;
  }
}

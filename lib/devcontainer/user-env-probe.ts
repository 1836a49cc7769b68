/**
 * Which shell's environment the workspace's processes get (the spec's `userEnvProbe`).
 *
 * Clock: apply time (the image's merged configuration). The Dev Containers tools start the
 * remote user's shell once (as a login and/or interactive shell, by `userEnvProbe`, default
 * `loginInteractiveShell`) and run every hook and tool with the environment it ends with, so
 * that nvm, sdkman, conda or rustup, which set PATH in `~/.bashrc` or `~/.profile`, are found.
 * The workspace does the same once per start in the `dev` container's wrapper
 * (dev-entrypoint.sh, bounded in time), between containerEnv and remoteEnv, before it execs
 * the agent: every hook, terminal and app inherits it. A value that is not one of
 * {@link USER_ENV_PROBE_VALUES} becomes the default, with a warning naming the value.
 */
import { Construct } from "../core/cdk";
import { Expr, hcl } from "../core/expr";
import { NamedLocals } from "../core/named-locals";
import { quotedForWarning } from "./repository-values";

/** The values `userEnvProbe` may take. */
export const USER_ENV_PROBE_VALUES: readonly string[] = [
  "none",
  "loginShell",
  "interactiveShell",
  "loginInteractiveShell",
];

/** The spec's default `userEnvProbe`. */
export const DEFAULT_USER_ENV_PROBE = "loginInteractiveShell";

/** Seconds the wrapper waits for the probe before it starts the agent without it. */
export const USER_ENV_PROBE_TIMEOUT_SECONDS = 10;

export interface DevcontainerUserEnvProbeProps {
  /** The merged configuration object (DevcontainerSource.configuration); `{}` when absent. */
  readonly configuration: Expr<unknown>;
  /** Prefix of the local names, for several instances in one module. @default "" */
  readonly localPrefix?: string;
}

/** Locals (with `localPrefix`): `user_env_probe`, `user_env_probe_warnings`. */
export class DevcontainerUserEnvProbe extends Construct {
  /** Local `user_env_probe`: one of {@link USER_ENV_PROBE_VALUES}. */
  public readonly mode: Expr<string>;
  /** Local `user_env_probe_warnings`: one line when `userEnvProbe` is set to something else. */
  public readonly warnings: Expr<string[]>;

  constructor(scope: Construct, id: string, props: DevcontainerUserEnvProbeProps) {
    super(scope, id);
    const locals = new NamedLocals(this, props.localPrefix ?? "");
    const requested = locals.add<string>(
      "user_env_probe_requested",
      hcl`try(${props.configuration}.userEnvProbe, null)`,
      "Read once: the decision and its warning both test the repository's value.",
    );
    const valid = hcl<boolean>`try(contains(${USER_ENV_PROBE_VALUES}, ${requested}), false)`;
    this.mode = locals.add<string>(
      "user_env_probe",
      hcl`${valid} ? ${requested} : ${DEFAULT_USER_ENV_PROBE}`,
      "A userEnvProbe that names no probe falls back to the spec's default.",
    );
    const message = `userEnvProbe %s is not one of ${USER_ENV_PROBE_VALUES.join(", ")}; the workspace probes a ${DEFAULT_USER_ENV_PROBE} (the default).`;
    this.warnings = locals.add<string[]>(
      "user_env_probe_warnings",
      hcl`${requested} != null && !${valid} ? [format(${message}, ${quotedForWarning(requested)})] : []`,
    );
  }
}

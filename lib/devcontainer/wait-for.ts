/**
 * Which Dev Container lifecycle hooks hold the user's login (the spec's `waitFor`).
 *
 * Clock: apply time (the image's merged configuration). The Dev Containers tools run the hooks
 * in order and connect once the hook `waitFor` names has finished (default
 * `updateContentCommand`); the later ones run in the background. The template does the same:
 * the hooks up to `waitFor` run in the login-blocking lifecycle script, the later ones (up to
 * postStartCommand) in a second script that does not block login, and postAttachCommand in its
 * own, which blocks login only when `waitFor` names it. initializeCommand, which the tools run
 * on the host before anything else, always blocks. A `waitFor` that is not one of
 * {@link WAIT_FOR_VALUES} (another hook name, a number, an object) becomes the default, with a
 * warning naming the value; the plan never fails on it.
 */
import { Construct } from "../core/cdk";
import { type Expr, hcl } from "../core/expr";
import { NamedLocals } from "../core/named-locals";
import { quotedForWarning } from "./repository-values";

/** The values `waitFor` may take, in the order the hooks run. */
export const WAIT_FOR_VALUES: readonly string[] = [
  "onCreateCommand",
  "updateContentCommand",
  "postCreateCommand",
  "postStartCommand",
  "postAttachCommand",
];

/** The spec's default `waitFor`. */
export const DEFAULT_WAIT_FOR = "updateContentCommand";

/** Hooks that block login whatever `waitFor` says (run before the first hook it can name). */
export const ALWAYS_BLOCKING_HOOKS: readonly string[] = ["initializeCommand"];

export interface DevcontainerWaitForProps {
  /** The merged configuration object (DevcontainerSource.configuration); `{}` when absent. */
  readonly configuration: Expr<unknown>;
  /** Prefix of the local names, for several instances in one module. @default "" */
  readonly localPrefix?: string;
}

/** Locals (with `localPrefix`): `wait_for`, `login_blocking_hooks`, `wait_for_warnings`. */
export class DevcontainerWaitFor extends Construct {
  /** Local `wait_for`: one of {@link WAIT_FOR_VALUES}. */
  public readonly waitFor: Expr<string>;
  /** Local `login_blocking_hooks`: list(string) of the hook names that run before login. */
  public readonly loginBlockingHooks: Expr<string[]>;
  /** Local `wait_for_warnings`: one line when `waitFor` is set to something else. */
  public readonly warnings: Expr<string[]>;

  constructor(scope: Construct, id: string, props: DevcontainerWaitForProps) {
    super(scope, id);
    const locals = new NamedLocals(this, props.localPrefix ?? "");
    const requested = locals.add<string>(
      "wait_for_requested",
      hcl`try(${props.configuration}.waitFor, null)`,
      "Read once: the decision and its warning both test the repository's value.",
    );
    const valid = hcl<boolean>`try(contains(${WAIT_FOR_VALUES}, ${requested}), false)`;
    const waitFor = locals.add<string>(
      "wait_for",
      hcl`${valid} ? ${requested} : ${DEFAULT_WAIT_FOR}`,
      "A waitFor that names no hook falls back to the spec's default, updateContentCommand.",
    );
    const blocking = locals.add<string[]>(
      "login_blocking_hooks",
      hcl`concat(${ALWAYS_BLOCKING_HOOKS}, slice(${WAIT_FOR_VALUES}, 0, index(${WAIT_FOR_VALUES}, ${waitFor}) + 1))`,
      "initializeCommand always blocks; then every hook up to waitFor holds the login.",
    );
    const message = `waitFor %s is not one of ${WAIT_FOR_VALUES.join(", ")}; login waits for ${DEFAULT_WAIT_FOR} (the default).`;
    const warnings = locals.add<string[]>(
      "wait_for_warnings",
      hcl`${requested} != null && !${valid} ? [format(${message}, ${quotedForWarning(requested)})] : []`,
    );
    this.waitFor = waitFor;
    this.loginBlockingHooks = blocking;
    this.warnings = warnings;
  }

  /** Whether the hook `name` runs before login (an HCL bool). */
  blocksLogin(name: string): Expr<boolean> {
    return hcl<boolean>`contains(${this.loginBlockingHooks}, ${name})`;
  }
}

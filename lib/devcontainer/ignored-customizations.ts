/**
 * Tools' customizations the workspace does not apply, said in the build log (apply time, from
 * the merged configuration, where `customizations` maps each tool to one entry per contributor:
 * base image, Features, devcontainer.json). The workspace offers VS Code (Desktop and in the
 * browser) and applies `customizations.vscode`; `customizations.jetbrains` (a backend IDE,
 * plugins) has no counterpart: the template installs no JetBrains backend, and JetBrains
 * Gateway or Toolbox, which connect through Coder, pick their own. The warning names the keys
 * the entries set and a string `backend`, JSON-quoted. Inputs may be anything; the plan never
 * fails on them.
 */
import { Construct } from "../core/cdk";
import { Expr, hcl } from "../core/expr";
import { NamedLocals } from "../core/named-locals";
import { quotedForWarning } from "./repository-values";

/** Keys of the jetbrains entries a warning names, at most (the file's to make long). */
export const JETBRAINS_KEYS_NAMED = 10;

export interface DevcontainerIgnoredCustomizationsProps {
  /** The merged configuration object (DevcontainerSource.configuration); `{}` when absent. */
  readonly configuration: Expr<unknown>;
  /** Prefix of the local names, for several instances in one module. @default "" */
  readonly localPrefix?: string;
}

/** Locals (with `localPrefix`): `jetbrains_entries`, `ignored_customizations_warnings`. */
export class DevcontainerIgnoredCustomizations extends Construct {
  /** Local `ignored_customizations_warnings`: list(string). */
  public readonly warnings: Expr<string[]>;

  constructor(scope: Construct, id: string, props: DevcontainerIgnoredCustomizationsProps) {
    super(scope, id);
    const locals = new NamedLocals(this, props.localPrefix ?? "");
    // One entry per contributor when it is a list (the merged form); a bare object is one.
    const entries = locals.add<unknown[]>(
      "jetbrains_entries",
      hcl`try([for e in flatten([${props.configuration}.customizations.jetbrains]) : e if can(keys(e))], [])`,
      "customizations.jetbrains has one entry per contributor; only objects say anything.",
    );
    const keyNames = hcl`sort(distinct(flatten([for e in ${entries} : keys(e)])))`;
    const named = hcl`slice(${keyNames}, 0, min(${JETBRAINS_KEYS_NAMED}, length(${keyNames})))`;
    const backends = hcl`[for e in ${entries} : e.backend if try(tostring(e.backend) != "", false)]`;
    const message =
      "customizations.jetbrains%s is not applied: the workspace installs VS Code only; " +
      "JetBrains Gateway or Toolbox connect through Coder and choose the IDE backend and plugins themselves.";
    this.warnings = locals.add<string[]>(
      "ignored_customizations_warnings",
      hcl`length(${entries}) > 0 ? [format(${message}, format(" (%s%s)",
        join(", ", ${named}),
        length(${backends}) > 0 ? format("; backend %s", ${quotedForWarning(hcl`${backends}[length(${backends}) - 1]`)}) : ""))] : []`,
      "The warning names the keys and the backend; their values are the file's.",
    );
  }
}

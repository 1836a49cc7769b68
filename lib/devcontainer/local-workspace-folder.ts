/**
 * `${localWorkspaceFolder}` in the workspace: the clone, the folder the repository was cloned
 * into (DevcontainerWorkspaceFolder.repositoryFolder), as on the machine that runs the Dev
 * Containers tools, where it is the repository's root; `${containerWorkspaceFolder}` is the
 * workspace folder. They differ when workspaceFolder is a subfolder of the repository or
 * workspaceMount names another target.
 *
 * Clock: apply time (the data source's `variables`). Mount sources and targets get each its
 * own value (DevcontainerMounts). In rendered hook scripts the service writes both as
 * `$DEVCONTAINER_WORKSPACE_FOLDER`: the pod sets it to the workspace folder, and the
 * lifecycle script sets it to the clone for initializeCommand (the host-side hook, which
 * knows the repository's root only) unless that hook also names the container's folder; then
 * it keeps the workspace folder and, when the two differ, the build log says so. build.args
 * and build.context are resolved by devcontainer-builder in its own clone of the repository,
 * which is `${localWorkspaceFolder}` there.
 */
import { Construct } from "../core/cdk";
import { Expr, hcl } from "../core/expr";
import { NamedLocals } from "../core/named-locals";

/** The warning when initializeCommand names both folders: `%s` the workspace folder, the clone. */
const BOTH_FOLDERS_MESSAGE =
  "initializeCommand uses both ${localWorkspaceFolder} and ${containerWorkspaceFolder}, which the " +
  "service writes as one variable: both are %s (the workspace folder) there, not the clone %s.";

export interface DevcontainerLocalWorkspaceFolderProps {
  /** The data source's `variables` (`kind`, `name`, `used_in`); null means none. */
  readonly variables: Expr<unknown[]>;
  /** The workspace folder (DevcontainerWorkspaceFolder.path). */
  readonly workspaceFolder: Expr<string>;
  /** The clone (DevcontainerWorkspaceFolder.repositoryFolder). */
  readonly repositoryFolder: Expr<string>;
  /** Prefix of the local names, for several instances in one module. @default "" */
  readonly localPrefix?: string;
}

/** Locals (with `localPrefix`): `initialize_folder_variable`, `local_workspace_folder_warnings`. */
export class DevcontainerLocalWorkspaceFolder extends Construct {
  /**
   * Local `initialize_folder_variable`: `"workspace"` when initializeCommand names the
   * container's folder (its `$DEVCONTAINER_WORKSPACE_FOLDER` stays the workspace folder), else
   * `""` (it is the clone).
   */
  public readonly initializeFolderVariable: Expr<string>;
  /** Local `local_workspace_folder_warnings`: one line when initializeCommand names both. */
  public readonly warnings: Expr<string[]>;

  constructor(scope: Construct, id: string, props: DevcontainerLocalWorkspaceFolderProps) {
    super(scope, id);
    const locals = new NamedLocals(this, props.localPrefix ?? "");
    const usedInInitialize = (prefix: string) =>
      hcl<boolean>`anytrue([for v in try(concat(${props.variables}, []), []) : try(
        v.kind == "context" && startswith(v.name, ${prefix})
        && anytrue([for use in concat(v.used_in, []) : startswith(use, "initializeCommand")]), false)])`;
    const container = locals.add<boolean>(
      "initialize_names_container_folder",
      usedInInitialize("containerWorkspaceFolder"),
      "The service writes both folder forms as one shell variable: only the variables list tells.",
    );
    const local = locals.add<boolean>(
      "initialize_names_local_folder",
      usedInInitialize("localWorkspaceFolder"),
    );
    this.initializeFolderVariable = locals.add<string>(
      "initialize_folder_variable",
      hcl`${container} ? "workspace" : ""`,
      "initializeCommand's folder variable is the clone unless the hook names the container's.",
    );
    this.warnings = locals.add<string[]>(
      "local_workspace_folder_warnings",
      hcl`${container} && ${local} && ${props.workspaceFolder} != ${props.repositoryFolder} ? [format(
        ${BOTH_FOLDERS_MESSAGE}, ${props.workspaceFolder}, ${props.repositoryFolder})] : []`,
    );
  }
}

/**
 * Where the repository is cloned and opened in a devcontainer workspace (spec §8).
 *
 * Clock: apply time (repository parameter, the image's workspaceFolder, the workspace id).
 * Inputs may be null or malformed; the plan never fails on them: a folder that cannot be a
 * mount path, or holds a character outside WORKSPACE_FOLDER_PATTERN (it reaches the IDE links and
 * scripts), becomes the default `/workspaces/<repo_name>`, with a warning naming the value. So
 * does a system directory ({@link SYSTEM_DIRECTORIES}, {@link SYSTEM_TREE_PATTERN}) and a path
 * with a segment over {@link MAX_SEGMENT_BYTES}. Repeated `/` are collapsed silently, as
 * trailing ones are removed.
 */
import { Construct, type IResolvable } from "../core/cdk";
import { Expr, hcl, type HclValue } from "../core/expr";
import { NamedLocals } from "../core/named-locals";
import { quotedForWarning, REPO_NAME_PATTERN, WORKSPACE_FOLDER_PATTERN } from "./repository-values";

/** The workspace folder when devcontainer.json sets none (placeholder included). */
export const DEFAULT_WORKSPACE_FOLDER = "/workspaces/${localWorkspaceFolderBasename}";

/** repo_name when the repository URL yields none (not specified upstream; see the docs). */
export const FALLBACK_REPO_NAME = "workspace";

/**
 * Where the PVC's `workspace-folder/` is mounted when the folder needs no mount of its own:
 * the mount exists either way, so the pod's shape does not depend on the repository.
 */
export const UNUSED_WORKSPACE_FOLDER_MOUNT = "/mnt/.devcontainer-unused-workspace-folder";

/**
 * Directories that neither the workspace folder nor a mounts[].target may be (paths below them
 * stay allowed: `/usr/src/app`, `/var/lib/x`): an empty volume there hides what the image needs
 * to start (its shell, libraries, /etc/passwd, the runtime's /run). `/usr/bin`, `/usr/sbin` and
 * `/usr/lib*` are what `/bin`, `/sbin` and `/lib*` link to on merged-/usr images, `/var/run`
 * links to `/run`. Compared after {@link collapseSlashes} and trailing `/` removal.
 */
export const SYSTEM_DIRECTORIES = [
  "/",
  "/bin",
  "/boot",
  "/dev",
  "/etc",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/proc",
  "/run",
  "/sbin",
  "/sys",
  "/usr",
  "/usr/bin",
  "/usr/lib",
  "/usr/lib32",
  "/usr/lib64",
  "/usr/libx32",
  "/usr/sbin",
  "/var",
  "/var/run",
];

/**
 * Trees nothing may be mounted in, at any depth: the kernel's /proc and /sys (the API server
 * refuses a mount path there) and the runtime's /dev (the pod's /dev/shm is its own mount).
 */
export const SYSTEM_TREE_PATTERN = "^/(proc|sys|dev)(/|$)";

/** Most bytes of one path segment (Linux NAME_MAX): a longer one cannot be created. */
export const MAX_SEGMENT_BYTES = 255;

/**
 * {@link UNUSED_WORKSPACE_FOLDER_MOUNT} as `local.unused_workspace_folder_mount`: the path is
 * read wherever a folder or a mount target is checked against the pod's own mounts.
 */
export function unusedWorkspaceFolderMount(scope: Construct): string {
  return NamedLocals.shared(
    scope,
    "unused_workspace_folder_mount",
    UNUSED_WORKSPACE_FOLDER_MOUNT,
    "The PVC's workspace-folder/ goes here when unused: the pod's shape never depends on the repo.",
  ).asString;
}

/** `path` with each run of `/` collapsed to one (`//a//b` → `/a/b`), as the kubelet compares. */
export function collapseSlashes(path: HclValue): IResolvable {
  return hcl`replace(${path}, "/[/]+/", "/")`;
}

/** Whether `path` (collapsed, without trailing `/`) is or lies in a system directory. */
export function isSystemPath(path: HclValue): IResolvable {
  return hcl`contains(${SYSTEM_DIRECTORIES}, ${path}) || can(regex(${SYSTEM_TREE_PATTERN}, ${path}))`;
}

export interface DevcontainerWorkspaceFolderProps {
  /** The `repository` parameter (https, ssh or scp-style URL). */
  readonly repository: HclValue;
  /** The metadata's `workspace_folder`; null or empty means the default. */
  readonly workspaceFolder: HclValue;
  /** The Coder workspace id, for `${devcontainerId}`. */
  readonly workspaceId: HclValue;
  /** The remote user's home ({@link DevcontainerWorkspaceUser.homeDir}): a folder equal to it is not mounted. */
  readonly homeDir: HclValue;
  /**
   * The configuration's `workspaceMount` (a `key=value,…` mount string, or null): where it
   * names a `target`, the repository is cloned there, and the workspace folder is only where
   * the IDEs open and the hooks run. @default null
   */
  readonly workspaceMount?: HclValue;
  /** Prefix of the local names, for several instances in one module. @default "" */
  readonly localPrefix?: string;
}

/**
 * Whether `path` can be the folder: it reaches the vscode-desktop link unencoded, the IDE
 * modules' scripts, our scripts and the pod: absolute, not `/`, only WORKSPACE_FOLDER_PATTERN's
 * characters (so no unresolved `${…}` either), no `.`/`..` segments, not a fixed mount point.
 */
function validFolder(path: string, unusedMount: string): IResolvable {
  return hcl`try(
      can(regex(${WORKSPACE_FOLDER_PATTERN}, ${path})) &&
      !can(regex("(^|/)[.][.]?(/|$)", ${path})) &&
      !contains(["/dev/shm", ${unusedMount}], ${path}), false)`;
}

/**
 * Whether a valid `path` has a segment too long to create (the pattern is ASCII: a character
 * is a byte); with a system directory, a valid folder the container cannot have.
 */
function tooLong(path: string): IResolvable {
  return hcl`can(regex(${`[^/]{${MAX_SEGMENT_BYTES + 1}}`}, ${path}))`;
}

/**
 * Locals (with `localPrefix`): `repo_name`, `workspace_folder`, `repository_folder`,
 * `workspace_folder_mounted`, `workspace_folder_warnings`, and the intermediate `repo_name_requested`,
 * `workspace_folder_requested`, `workspace_mount_target_requested` (what warnings quote),
 * `workspace_folder_normalized` and `workspace_mount_target_normalized`.
 *
 * The repository folder is where the clone goes: workspaceMount's target when it names a usable
 * one (the Dev Containers tools mount the source there), else `/workspaces/<repo_name>` when the
 * workspace folder is a subfolder of it (the tools' default mount), else the workspace folder. The PVC's
 * `workspace-folder/` is mounted there when it is outside /workspaces and the home.
 */
export class DevcontainerWorkspaceFolder extends Construct {
  /** Local `repo_name`: the repository's last path segment without `.git`. */
  public readonly repoName: string;
  /** Local `workspace_folder`: absolute, placeholders substituted, no trailing `/`. */
  public readonly path: string;
  /** Local `repository_folder`: where the repository is cloned (see the class comment). */
  public readonly repositoryFolder: string;
  /**
   * Local `workspace_folder_mounted`: true when the repository folder gets the PVC's
   * `workspace-folder/` (it is neither `/workspaces`, under `/workspaces/`, nor the home).
   */
  public readonly mounted: IResolvable;
  /** Local `workspace_folder_warnings`: list(string), one per bad value. */
  public readonly warnings: string[];

  constructor(scope: Construct, id: string, props: DevcontainerWorkspaceFolderProps) {
    super(scope, id);
    const locals = new NamedLocals(this, props.localPrefix ?? "");
    const unusedMount = unusedWorkspaceFolderMount(this);

    const { repoNameRequested, repoName } = this.repositoryName(locals, props);
    const workspaceFolder = this.workspaceFolder(locals, props, repoName, unusedMount);
    const { folder } = workspaceFolder;
    const target = this.cloneFolder(locals, props, repoName, folder, unusedMount);
    const warnings = this.warningLines(
      locals,
      repoNameRequested,
      repoName,
      workspaceFolder,
      target,
    );

    this.repoName = repoName.asString;
    this.path = folder.asString;
    this.repositoryFolder = target.repositoryFolder.asString;
    this.mounted = target.mounted;
    this.warnings = warnings.asList;
  }

  /** The repository's name, as requested and as a folder name can be. */
  private repositoryName(
    locals: NamedLocals,
    props: DevcontainerWorkspaceFolderProps,
  ): { readonly repoNameRequested: Expr; readonly repoName: Expr } {
    // The last segment after a "/" or ":" (so scp-style `git@host:repo.git` gives `repo`),
    // trailing slashes and `.git` removed.
    const repoNameRequested = locals.add(
      "repo_name_requested",
      hcl`try(trimsuffix(regex("[^/:]*$", replace(trimspace(${props.repository}), "/[/]+$/", "")), ".git"), null)`,
      "The last segment after / or : (scp-style git@host:repo.git too), without .git.",
    );
    // A segment of the default folder, so it has the folder's characters (WORKSPACE_FOLDER_PATTERN).
    const repoName = locals.add(
      "repo_name",
      hcl`try(can(regex(${REPO_NAME_PATTERN}, ${repoNameRequested.asString})) &&
        !contains([".", ".."], ${repoNameRequested.asString}), false) ? ${repoNameRequested.asString} : ${FALLBACK_REPO_NAME}`,
      "It becomes a segment of the default folder, so it must have the folder's characters.",
    );
    return { repoNameRequested, repoName };
  }

  /** The workspace folder: workspaceFolder with its placeholders, if it passes the checks. */
  private workspaceFolder(
    locals: NamedLocals,
    props: DevcontainerWorkspaceFolderProps,
    repoName: Expr,
    unusedMount: string,
  ): WorkspaceFolder {
    const requested = locals.add(
      "workspace_folder_requested",
      hcl`replace(replace(replace(replace(
        try(coalesce(trimspace(${props.workspaceFolder})), ${DEFAULT_WORKSPACE_FOLDER}),
        ${"${localWorkspaceFolderBasename}"}, ${repoName.asString}),
        ${"${containerWorkspaceFolderBasename}"}, ${repoName.asString}),
        ${"${devcontainerId}"}, try(tostring(${props.workspaceId}), "")),
        "/(.)[/]+$/", "$1")`,
      "The tools' placeholders substituted as the Dev Containers CLI does, before any check.",
    );

    // Repeated slashes collapsed before any comparison (`//workspaces` is `/workspaces`).
    const normalized = locals.add(
      "workspace_folder_normalized",
      collapseSlashes(requested.asString),
      "Repeated slashes collapsed first: //workspaces is /workspaces to the kubelet too.",
    );

    // Each test is one local: the folder and its warnings both read them.
    const valid = locals.add(
      "workspace_folder_valid",
      validFolder(normalized.asString, unusedMount),
      "The folder reaches an IDE link unencoded and shell scripts: only safe characters pass.",
    );
    const systemPath = locals.add(
      "workspace_folder_is_system_path",
      isSystemPath(normalized.asString),
      "An empty volume over a system directory would hide what the image needs to start.",
    );
    const longSegment = locals.add(
      "workspace_folder_segment_too_long",
      tooLong(normalized.asString),
      "A segment over 255 bytes (NAME_MAX) cannot be created: the pod would never start.",
    );

    const folder = locals.add(
      "workspace_folder",
      hcl`${valid} && !${systemPath} && !${longSegment} ? ${normalized.asString} : format("/workspaces/%s", ${repoName.asString})`,
      "A folder that fails a check becomes /workspaces/<repo>: a bad value never fails the plan.",
    );
    return { requested, folder, valid, systemPath, longSegment };
  }

  /** Where the clone goes (workspaceMount's target when usable), and whether it gets a mount. */
  private cloneFolder(
    locals: NamedLocals,
    props: DevcontainerWorkspaceFolderProps,
    repoName: Expr,
    folder: Expr,
    unusedMount: string,
  ): RepositoryFolder {
    // workspaceMount's target: the value of its target (or dst, destination) key, with the
    // placeholders the tools substitute; `${containerWorkspaceFolder}` is the workspace folder.
    const mountTargetRequested = locals.add(
      "workspace_mount_target_requested",
      hcl`try(replace(replace(replace(replace(replace(
        trimspace(regex("(?:^|,)[ ]*(?:target|dst|destination)=([^,]*)", ${props.workspaceMount ?? hcl`null`})[0]),
        ${"${localWorkspaceFolderBasename}"}, ${repoName.asString}),
        ${"${containerWorkspaceFolderBasename}"}, ${repoName.asString}),
        ${"${containerWorkspaceFolder}"}, ${folder.asString}),
        ${"${devcontainerId}"}, try(tostring(${props.workspaceId}), "")),
        "/(.)[/]+$/", "$1"), null)`,
      "The Dev Containers tools clone into workspaceMount's target: the repository goes there.",
    );
    const mountTarget = locals.add(
      "workspace_mount_target_normalized",
      hcl`try(${collapseSlashes(mountTargetRequested.asString)}, null)`,
      "Collapsed as the folder is, so the two compare as the kubelet compares paths.",
    ).asString;
    const targetUsable = locals.add(
      "workspace_mount_target_usable",
      hcl`${mountTarget} != null && ${validFolder(mountTarget, unusedMount)} && !try(${isSystemPath(mountTarget)}, true) && !${tooLong(mountTarget)}`,
      "The target must pass the folder's checks, or the repository goes to the workspace folder.",
    );
    // Without workspaceMount the tools mount the repository at /workspaces/<repo>: a
    // workspaceFolder under it is a subfolder of the repository (a monorepo's package), opened
    // in the one clone at the root, never a second clone nested inside it.
    const defaultMountTarget = locals.add(
      "default_mount_target",
      hcl`format("/workspaces/%s", ${repoName.asString})`,
      "Where the Dev Containers tools mount the source without workspaceMount.",
    ).asString;
    const repositoryFolder = locals.add(
      "repository_folder",
      hcl`${targetUsable} ? ${mountTarget} : (startswith(${folder.asString}, format("%s/", ${defaultMountTarget})) ? ${defaultMountTarget} : ${folder.asString})`,
      "The source is at workspaceMount's target, else /workspaces/<repo>: the clone goes there.",
    );
    const repo = repositoryFolder.asString;
    const mounted = locals.add(
      "workspace_folder_mounted",
      hcl`!(${repo} == "/workspaces" || startswith(${repo}, "/workspaces/") ||
        ${repo} == try(tostring(${props.homeDir}), null))`,
      "/workspaces and the home are mounts already; any other folder gets the PVC's own.",
    );
    return { mountTargetRequested, targetUsable, repositoryFolder, mounted };
  }

  /** `workspace_folder_warnings`: one line per value the folders cannot use. */
  private warningLines(
    locals: NamedLocals,
    repoNameRequested: Expr,
    repoName: Expr,
    { requested, folder, valid, systemPath, longSegment }: WorkspaceFolder,
    { mountTargetRequested, targetUsable }: RepositoryFolder,
  ): Expr {
    const quotedFolder = locals.add(
      "workspace_folder_quoted",
      quotedForWarning(requested.asString),
      "Three warnings quote the folder as given, JSON-escaped so control characters stay inert.",
    ).asString;
    return locals.add(
      "workspace_folder_warnings",
      hcl`concat(
        try(length(${repoNameRequested.asString}) > 0 && ${repoName.asString} != ${repoNameRequested.asString}, false) ? [format(
          "The repository's name %s cannot be a folder name (letters, digits and . _ @ , ~ -); the folder name placeholders and the default folder use %s.",
          ${quotedForWarning(repoNameRequested.asString)}, ${repoName.asString})] : [],
        ${valid} ? [] : [format(
          "workspaceFolder %s cannot be used as the workspace folder (it must be an absolute path other than / of letters, digits and . _ @ , ~ - /, without . or .. segments or unknown variables); the workspace uses %s.",
          ${quotedFolder}, ${folder.asString})],
        ${valid} && ${systemPath} ? [format(
          "workspaceFolder %s is a system directory or lies under /proc, /sys or /dev, where the workspace cannot be mounted; the workspace uses %s.",
          ${quotedFolder}, ${folder.asString})] : [],
        ${valid} && !${systemPath} && ${longSegment} ? [format(
          "workspaceFolder %s has a path segment longer than ${MAX_SEGMENT_BYTES} bytes, which cannot be created; the workspace uses %s.",
          ${quotedFolder}, ${folder.asString})] : [],
        ${mountTargetRequested.asString} != null && !(${targetUsable}) ? [format(
          "workspaceMount's target %s cannot hold the repository (it must be an absolute path other than / of letters, digits and . _ @ , ~ - /, outside the system directories); it is cloned into the workspace folder %s.",
          ${quotedForWarning(mountTargetRequested.asString)}, ${folder.asString})] : []
      )`,
    );
  }
}

/** The workspace folder, as requested and as used, and the checks it passed or failed. */
interface WorkspaceFolder {
  readonly requested: Expr;
  readonly folder: Expr;
  readonly valid: IResolvable;
  readonly systemPath: IResolvable;
  readonly longSegment: IResolvable;
}

/** The repository folder and its mount. */
interface RepositoryFolder {
  readonly mountTargetRequested: Expr;
  readonly targetUsable: IResolvable;
  readonly repositoryFolder: Expr;
  readonly mounted: Expr;
}

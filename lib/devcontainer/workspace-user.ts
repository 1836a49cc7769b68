/**
 * The user a devcontainer workspace runs as: name, uid, gid and home directory (spec §6, §7).
 *
 * Clock: apply time. Every value comes from the repository's image (the Dev Container
 * metadata data source), so each decision is a Terraform local that can be planned alone:
 * variables in, outputs out. Inputs may be null (workspace stopped, pre-0.3.0 service or
 * image) or malformed; the plan never fails on them: a missing uid/gid becomes 1000 with a
 * warning to rebuild, a bad value becomes its fallback with a warning naming field and value.
 */
import { Construct, type IResolvable } from "../core/cdk";
import { Expr, hcl, type HclValue } from "../core/expr";
import { NamedLocals } from "../core/named-locals";
import { POD_PATH_PATTERN, quotedForWarning, USER_NAME_PATTERN } from "./repository-values";
import { SEED_HOME_DATA_MOUNT } from "./mounts";
import { collapseSlashes, isSystemPath, UNUSED_WORKSPACE_FOLDER_MOUNT } from "./workspace-folder";

/** uid/gid the pod runs as when the image has none recorded (deprecated, removed in 2.0). */
export const FALLBACK_UID = 1000;

/**
 * Paths that cannot be the home: the pod mounts something else there (two volumes cannot share
 * a mount path), or the container runtime owns them. seed-home reads the image's home where
 * its init container has the whole volume mounted (SEED_HOME_DATA_MOUNT), so a home there, or
 * under it, or its parent, would copy the volume into itself: {@link SEED_MOUNT_TREE} too.
 */
const PATHS_NOT_A_HOME = [
  "/workspaces",
  "/dev",
  "/dev/shm",
  "/proc",
  "/sys",
  "/mnt",
  SEED_HOME_DATA_MOUNT,
  UNUSED_WORKSPACE_FOLDER_MOUNT,
];
/** Paths under seed-home's mount of the volume. */
const SEED_MOUNT_TREE = `^${SEED_HOME_DATA_MOUNT}/`;

/** Highest uid/gid Kubernetes accepts in runAsUser/runAsGroup/fsGroup. */
const MAX_ID = 2147483647;

export interface DevcontainerWorkspaceUserProps {
  /**
   * The metadata's `remote_user` (devcontainer.json remoteUser, resolved by the service).
   * Null or empty falls back to `containerUser`, then to `"root"`.
   */
  readonly remoteUser: HclValue;
  /** The metadata's `container_user`. @default null */
  readonly containerUser?: HclValue;
  /**
   * The metadata's `runtime` object; its `remote_user_uid`, `remote_user_gid` and
   * `remote_user_home` are read. Null while stopped or for images built before 0.3.0.
   */
  readonly runtime: HclValue;
  /**
   * True when the metadata was read (the data source exists, i.e. the workspace starts).
   * Only then is a missing uid/gid a finding worth a warning.
   */
  readonly metadataRead: HclValue;
  /** Prefix of the local names, for several instances in one module. @default "" */
  readonly localPrefix?: string;
}

/** The longest user name used (useradd's limit): `/home/<name>` stays one short segment. */
export const USER_NAME_MAX_LENGTH = 32;

/** What the metadata records for the remote user, as given. */
interface RecordedUser {
  readonly remoteGiven: IResolvable;
  readonly requested: Expr;
  readonly recordedUid: Expr;
  readonly recordedGid: Expr;
  readonly recordedHome: Expr;
  readonly home: string;
}

/** The user the workspace runs as, decided from what is recorded. */
interface DecidedUser {
  readonly check: HclValue;
  readonly remoteUser: Expr;
  readonly uid: Expr;
  readonly gid: Expr;
  readonly homeDir: Expr;
}

/**
 * Locals (with `localPrefix`): `remote_user`, `uid`, `gid`, `home_dir`, `user_warnings`,
 * plus the intermediate `remote_user_requested`, `recorded_uid`, `recorded_gid`,
 * `recorded_home` (what the warning quotes), `recorded_home_normalized` and `user_checks`.
 */
export class DevcontainerWorkspaceUser extends Construct {
  /** Local `remote_user`: the user name (`USER`, `LOGNAME`, the home fallback). */
  public readonly remoteUser: string;
  /** Local `uid`: pod `run_as_user`. */
  public readonly uid: number;
  /** Local `gid`: pod `run_as_group` and `fs_group`. */
  public readonly gid: number;
  /** Local `home_dir`: absolute, no trailing `/`; where the PVC's `home/` is mounted. */
  public readonly homeDir: string;
  /** Local `user_warnings`: list(string), the uid-fallback warning and bad-data warnings. */
  public readonly warnings: string[];

  constructor(scope: Construct, id: string, props: DevcontainerWorkspaceUserProps) {
    super(scope, id);
    const locals = new NamedLocals(this, props.localPrefix ?? "");

    const recorded = this.recordedUser(locals, props);
    const decided = this.decidedUser(locals, recorded);
    const warnings = this.warningLines(locals, props, recorded, decided);

    this.remoteUser = decided.remoteUser.asString;
    this.uid = decided.uid.asNumber;
    this.gid = decided.gid.asNumber;
    this.homeDir = decided.homeDir.asString;
    this.warnings = warnings.asList;
  }

  /** The remote user's name and the uid, gid and home the image records for them. */
  private recordedUser(locals: NamedLocals, props: DevcontainerWorkspaceUserProps): RecordedUser {
    // The first of the two that is more than spaces: a remote_user of " " must not hide a
    // usable container_user. coalesce skips empty strings and fails when nothing is left.
    const remoteGiven = hcl`try(trimspace(${props.remoteUser}), "")`;
    const requested = locals.add(
      "remote_user_requested",
      hcl`try(coalesce(${remoteGiven}, try(trimspace(${props.containerUser ?? null}), "")), null)`,
      'A remote_user of spaces must not hide a usable container_user: coalesce() skips "".',
    );
    const recordedUid = locals.add(
      "recorded_uid",
      hcl`try(${props.runtime}.remote_user_uid, null)`,
      "What the image records for the user: null when it records nothing, then checked below.",
    );
    const recordedGid = locals.add(
      "recorded_gid",
      hcl`try(${props.runtime}.remote_user_gid, null)`,
      "The user's group as the image records it: checked as the uid is.",
    );
    const recordedHome = locals.add(
      "recorded_home",
      // Trailing slashes dropped, but not the only one: "/" stays "/", and is refused (with a
      // warning) as a system directory, instead of becoming "" and passing unmentioned.
      hcl`try(replace(trimspace(${props.runtime}.remote_user_home), "/(.)[/]+$/", "$1"), null)`,
      'Trailing slashes go but / stays /, refused as a system directory instead of passing as "".',
    );
    // Repeated slashes collapsed: the home is compared with the folder and the mount targets,
    // which are collapsed too (`/home//vscode` is `/home/vscode`, `//proc` is `/proc`).
    const home = locals.add(
      "recorded_home_normalized",
      hcl`try(${collapseSlashes(recordedHome.asString)}, null)`,
      "Compared with the folder and mount targets, which are collapsed the same way.",
    ).asString;
    return { remoteGiven, requested, recordedUid, recordedGid, recordedHome, home };
  }

  /** Each recorded value if it is valid, else its fallback. */
  private decidedUser(
    locals: NamedLocals,
    { requested, recordedUid, recordedGid, home }: RecordedUser,
  ): DecidedUser {
    // One object of validity flags keeps the decisions below short and readable.
    const checks = locals.add(
      "user_checks",
      hcl`{
        remote_user_valid = try(can(regex(${USER_NAME_PATTERN}, ${requested.asString})) && length(${requested.asString}) <= ${USER_NAME_MAX_LENGTH}, false),
        uid_valid = try(floor(${recordedUid.asNumber}) == ${recordedUid.asNumber} && ${recordedUid.asNumber} >= 0 && ${recordedUid.asNumber} <= ${MAX_ID}, false),
        gid_valid = try(floor(${recordedGid.asNumber}) == ${recordedGid.asNumber} && ${recordedGid.asNumber} >= 0 && ${recordedGid.asNumber} <= ${MAX_ID}, false),
        home_valid = try(can(regex(${POD_PATH_PATTERN}, ${home})) && !can(regex("(^|/)[.][.]?(/|$)", ${home}))
          && !contains(${PATHS_NOT_A_HOME}, ${home}) && !can(regex(${SEED_MOUNT_TREE}, ${home}))
          && !(${isSystemPath(home)}), false)
      }`,
      "One object of validity flags keeps the decisions below short.",
    );
    const check = checks;

    const remoteUser = locals.add(
      "remote_user",
      hcl`${check}.remote_user_valid ? ${requested.asString} : "root"`,
      "A name outside the pattern would reach USER, LOGNAME and the home path: root is used instead.",
    );
    const uid = locals.add(
      "uid",
      hcl`${check}.uid_valid ? floor(${recordedUid.asNumber}) : ${FALLBACK_UID}`,
      "Kubernetes rejects a uid that is not a whole number up to 2^31-1: the fallback runs instead.",
    );
    const gid = locals.add(
      "gid",
      hcl`${check}.gid_valid ? floor(${recordedGid.asNumber}) : ${FALLBACK_UID}`,
      "Kubernetes rejects a gid that is not a whole number up to 2^31-1: the fallback runs instead.",
    );
    const homeDir = locals.add(
      "home_dir",
      hcl`${check}.home_valid ? ${home} : (
        ${remoteUser.asString} == "root" ? "/root" : format("/home/%s", ${remoteUser.asString}))`,
      "A home the pod cannot mount (a system path, one of its own mounts) falls back to /home/<user>.",
    );
    return { check, remoteUser, uid, gid, homeDir };
  }

  /** `user_warnings`: one line per recorded value that is not used, and why. */
  private warningLines(
    locals: NamedLocals,
    props: DevcontainerWorkspaceUserProps,
    { remoteGiven, requested, recordedUid, recordedGid, recordedHome }: RecordedUser,
    { check, remoteUser, homeDir }: DecidedUser,
  ): Expr {
    return locals.add(
      "user_warnings",
      hcl`concat(
        ${props.metadataRead} == true && (${recordedUid.asNumber} == null || ${recordedGid.asNumber} == null) ? [format(
          "The image records no uid/gid for the remote user %q (it was built by a devcontainer-builder older than 0.3.0), so the workspace runs as uid/gid ${FALLBACK_UID}. Increase the Rebuild parameter to rebuild the image.",
          ${remoteUser.asString})] : [],
        ${requested.asString} != null && !${check}.remote_user_valid ? [format(
          "%s %s is not a usable user name (at most ${USER_NAME_MAX_LENGTH} letters, digits and . _ -, not starting with . or -); the workspace uses \"root\" for USER and the home fallback.",
          ${remoteGiven} != "" ? "remote_user" : "container_user", ${quotedForWarning(requested.asString)})] : [],
        ${recordedUid.asNumber} != null && !${check}.uid_valid ? [format(
          "runtime.remote_user_uid %s is not a valid uid; the workspace runs as uid ${FALLBACK_UID}.",
          jsonencode(${recordedUid.asNumber}))] : [],
        ${recordedGid.asNumber} != null && !${check}.gid_valid ? [format(
          "runtime.remote_user_gid %s is not a valid gid; the workspace runs as gid ${FALLBACK_UID}.",
          jsonencode(${recordedGid.asNumber}))] : [],
        try(length(${recordedHome.asString}) > 0, false) && !${check}.home_valid ? [format(
          "runtime.remote_user_home %s is not usable as the home directory (an absolute path of letters, digits and . _ @ + , ~ - /, without . and .. segments, not a system directory, nothing under /proc, /sys or /dev, not a path the pod mounts itself); the home is %s.",
          ${quotedForWarning(recordedHome.asString)}, ${homeDir.asString})] : []
      )`,
    );
  }
}

/**
 * Storage of a devcontainer workspace pod (spec §9): the PVC's subPaths, devcontainer.json
 * volume and tmpfs mounts, /dev/shm, the collision rules, and the directories the seed-home
 * init container creates as the remote user.
 *
 * Clock: apply time (the image's mounts, home and workspace folder). Inputs may be null or
 * malformed; the plan never fails on them. A mount the pod cannot have is dropped with one
 * warning: an unsupported kind, a target that is not an absolute path, a source that is not a
 * volume name, a target or source with a segment over {@link MAX_SEGMENT_BYTES}, a target that
 * is already a mount point (the home, /workspaces, the workspace folder, /dev/shm), a system
 * directory ({@link SYSTEM_DIRECTORIES}, {@link SYSTEM_TREE_PATTERN}), or the target of an
 * earlier requested mount, dropped or not. Targets are compared with repeated and trailing `/`
 * removed, and mounted so.
 *
 * The lists are meant for dynamic blocks; {@link DevcontainerMounts.applyTo} writes them into a
 * kubernetes_deployment_v1 (cdktf's typed dynamic blocks cannot sit inside the list of
 * containers, nor nest, so these are raw overrides).
 */
import { Construct, Fn, Token } from "../core/cdk";
import { Expr, hcl } from "../core/expr";
import { NamedLocals } from "../core/named-locals";
import type {
  DeploymentV1,
  DeploymentV1SpecTemplateSpecInitContainer,
} from "@cdktf/provider-kubernetes/lib/deployment-v1";
import { POD_PATH_PATTERN, quotedForWarning, utf8Bytes } from "./repository-values";
import {
  collapseSlashes,
  isSystemPath,
  MAX_SEGMENT_BYTES,
  unusedWorkspaceFolderMount,
} from "./workspace-folder";

/** Name of the pod volume backed by the workspace's PVC. */
export const DATA_VOLUME = "data";
/** Name of the memory-backed emptyDir at /dev/shm. */
export const SHM_VOLUME = "dshm";
/** Where seed-home mounts the whole PVC. */
export const SEED_HOME_DATA_MOUNT = "/mnt/data";
/** mounts entries read from the configuration; the rest is left out with a warning. */
export const MOUNTS_READ = 200;

/** Placeholders a mount target or source may contain, besides `${devcontainerId}`. */
const FOLDER_PLACEHOLDERS = ["${containerWorkspaceFolder}", "${localWorkspaceFolder}"];
const BASENAME_PLACEHOLDERS = [
  "${containerWorkspaceFolderBasename}",
  "${localWorkspaceFolderBasename}",
];

export interface DevcontainerMountsProps {
  /**
   * The metadata's `mounts`: list of `{ kind, source, target, read_only }` (kind `volume` or
   * `tmpfs`; bind mounts never get here). Null while stopped or before 0.3.0.
   */
  readonly mounts: Expr<unknown[]>;
  /** The workspace folder ({@link DevcontainerWorkspaceFolder.path}). */
  readonly workspaceFolder: Expr<string>;
  /**
   * Where the repository is cloned ({@link DevcontainerWorkspaceFolder.repositoryFolder}), the folder the
   * PVC's `workspace-folder/` is mounted at. @default the workspace folder
   */
  readonly repositoryFolder?: Expr<string>;
  /** Whether it gets the PVC's `workspace-folder/` ({@link DevcontainerWorkspaceFolder.mounted}). */
  readonly workspaceFolderMounted: Expr<boolean>;
  /** The remote user's home ({@link DevcontainerWorkspaceUser.homeDir}). */
  readonly homeDir: Expr<string>;
  /** The Coder workspace id, for `${devcontainerId}`. */
  readonly workspaceId: Expr<string>;
  /** size_limit of /dev/shm ({@link DevcontainerRuntime.shmSizeLimit}). */
  readonly shmSizeLimit: Expr<string>;
  /**
   * Name of the workspace's PersistentVolumeClaim: a literal, a token, or a string mixing
   * both (e.g. `coder-${workspace.id}-data`).
   */
  readonly claimName: string;
  /** Prefix of the local names, for several instances in one module. @default "" */
  readonly localPrefix?: string;
}

/**
 * Locals (with `localPrefix`): `mount_requests`, `mount_decisions`, `kept_mounts`,
 * `volume_mounts`, `pod_volumes`, `seed_volume_dirs`, `seed_volumes`, `seed_mount_point_dirs`,
 * `mount_warnings`.
 */
export class DevcontainerMounts extends Construct {
  /**
   * Local `volume_mounts`: the `dev` container's mounts, list of
   * `{ name, mount_path, sub_path (string or null), read_only }`: home, /workspaces, the
   * workspace folder, each kept volume and tmpfs mount in order, /dev/shm.
   */
  public readonly volumeMounts: Expr<unknown[]>;
  /**
   * Local `pod_volumes`: list of `{ name, persistent_volume_claim, empty_dir }`, where the
   * last two are lists of zero or one `{ claim_name, read_only }` / `{ medium, size_limit }`:
   * `data` (the PVC), `dshm`, then `tmpfs-<index>` per kept tmpfs mount.
   */
  public readonly podVolumes: Expr<unknown[]>;
  /** Local `seed_volume_dirs`: list(string) of `volumes/<source>` / `volumes/anonymous-<i>`. */
  public readonly seedVolumeDirs: Expr<string[]>;
  /**
   * Local `seed_volumes`: list(string) of `<volume dir>=<target>`, one per volume (its first
   * kept mount): seed-home copies the image's content at the target into the volume on its
   * first use, as Docker does for a new, empty volume.
   */
  public readonly seedVolumes: Expr<string[]>;
  /** Local `seed_mount_point_dirs`: list(string) of PVC-relative mount-point directories. */
  public readonly seedMountPointDirs: Expr<string[]>;
  /** Local `mount_warnings`: list(string), one per dropped mount. */
  public readonly warnings: Expr<string[]>;

  constructor(scope: Construct, id: string, props: DevcontainerMountsProps) {
    super(scope, id);
    const locals = new NamedLocals(this, props.localPrefix ?? "");
    const folder = props.workspaceFolder;
    const repositoryFolder = props.repositoryFolder ?? folder;
    // hcl takes single tokens only; a string template mixing text and tokens goes through format().
    const claimName = Token.isUnresolved(props.claimName)
      ? Fn.format("%s", [props.claimName])
      : props.claimName;
    const mounted = hcl<boolean>`${props.workspaceFolderMounted} == true`;
    const folderMountPath = hcl<string>`${mounted} ? ${repositoryFolder} : ${unusedWorkspaceFolderMount(this)}`;
    const requests = this.mountRequests(locals, props, folder, repositoryFolder);
    const { decisions, kept } = this.mountDecisions(
      locals,
      props,
      requests,
      mounted,
      folderMountPath,
    );
    const { volumeMounts, podVolumes } = this.volumes(
      locals,
      props,
      kept,
      folderMountPath,
      claimName,
    );
    const seeds = this.seeds(locals, props, kept, mounted, folder, repositoryFolder);
    const warnings = this.warningLines(locals, props, decisions);

    this.volumeMounts = volumeMounts;
    this.podVolumes = podVolumes;
    this.seedVolumeDirs = seeds.seedVolumeDirs;
    this.seedVolumes = seeds.seedVolumes;
    this.seedMountPointDirs = seeds.seedMountPointDirs;
    this.warnings = warnings;
  }

  /**
   * `mount_requests`: each requested mount, the first MOUNTS_READ of them, normalized:
   * placeholders substituted, surrounding spaces and trailing slashes removed, repeated slashes
   * collapsed, an empty source meaning an anonymous volume.
   */
  private mountRequests(
    locals: NamedLocals,
    props: DevcontainerMountsProps,
    folder: Expr<string>,
    repositoryFolder: Expr<string>,
  ): Expr<unknown[]> {
    // The container forms name the workspace folder; the local ones the clone, which is where
    // the repository is, as on the machine that runs the Dev Containers tools (a source
    // `${localWorkspaceFolderBasename}-node_modules` is named after the repository, even when
    // the workspace folder is a subfolder of it).
    const substitute = (text: Expr<string>) =>
      hcl<string>`replace(replace(replace(replace(replace(${text},
        ${BASENAME_PLACEHOLDERS[0]}, basename(${folder})), ${BASENAME_PLACEHOLDERS[1]}, basename(${repositoryFolder})),
        ${FOLDER_PLACEHOLDERS[0]}, ${folder}), ${FOLDER_PLACEHOLDERS[1]}, ${repositoryFolder}),
        ${"${devcontainerId}"}, ${props.workspaceId})`;

    // Every request costs each plan and apply time, and no workspace needs this many: the
    // rest is not read (mount_warnings says so). Cut at the end, so indexes stay the same.
    return locals.add<unknown[]>(
      "mount_requests",
      hcl`try([
        for i, m in slice(${props.mounts}, 0, min(length(${props.mounts}), ${MOUNTS_READ})) : {
          index = i,
          kind = try(tostring(m.kind), null),
          source = try(coalesce(${substitute(hcl`trimspace(m.source)`)}), null),
          target = try(replace(${collapseSlashes(substitute(hcl`trimspace(m.target)`))}, "/(.)[/]+$/", "$1"), null),
          requested_target = try(m.target, null),
          read_only = try(m.read_only == true, false),
        }
      ], [])`,
      "Normalized once, cut at 200 but never filtered: a mount's index names its volume.",
    );
  }

  /** Each mount's problem, if any, and the mounts that have none. */
  private mountDecisions(
    locals: NamedLocals,
    props: DevcontainerMountsProps,
    requests: Expr<unknown[]>,
    mounted: Expr<boolean>,
    folderMountPath: Expr<string>,
  ): { readonly decisions: Expr<unknown[]>; readonly kept: Expr<unknown[]> } {
    // Paths the pod mounts anyway, with what the warning calls them.
    const reserved = hcl`[
      { path = "/workspaces", what = "/workspaces" },
      { path = ${props.homeDir}, what = "the home directory" },
      { path = ${folderMountPath}, what = ${mounted} ? "the workspace folder" : "the unused workspace-folder mount" },
      { path = "/dev/shm", what = "/dev/shm" },
    ]`;
    // A target usable as a mount path and in seed-home's space-separated lists (POD_PATH_PATTERN).
    const targetValid = (t: Expr<string>) =>
      hcl<boolean>`try(can(regex(${POD_PATH_PATTERN}, ${t})) && !can(regex("(^|/)[.][.]?(/|$)", ${t})), false)`;
    // A segment no file system can create (the target's letters may be multi-byte).
    const longSegment = (t: Expr<string>) =>
      hcl<boolean>`try(anytrue([for s in split("/", ${t}) : ${utf8Bytes(Expr.ref<string>("s"))} > ${MAX_SEGMENT_BYTES}]), false)`;
    // Each target's first request, from one map built once: searching the earlier requests for
    // every request made a list of n mounts cost n².
    const firstRequest = locals.add<Record<string, number[]>>(
      "mount_first_request",
      hcl`{ for r in ${requests} : r.target => r.index... if r.target != null }`,
      "One map finds each target's first request: searching earlier ones would cost n².",
    );
    const decisions = locals.add<unknown[]>(
      "mount_decisions",
      hcl`[
        for r in ${requests} : merge(r, {
          volume_dir = r.kind == "volume" ? format("volumes/%s", coalesce(r.source, format("anonymous-%d", r.index))) : null,
          problem = (
            !try(contains(["volume", "tmpfs"], r.kind), false) ? "kind" :
            !${targetValid(Expr.ref<string>("r.target"))} ? "target" :
            ${longSegment(Expr.ref<string>("r.target"))} ? "long_target" :
            r.kind == "volume" && !try(r.source == null || can(regex("^[A-Za-z0-9][A-Za-z0-9_.-]*$", r.source)), false) ? "source" :
            r.kind == "volume" && try(length(r.source) > ${MAX_SEGMENT_BYTES}, false) ? "long_source" :
            try(contains(${reserved}[*].path, r.target), false) ? "reserved" :
            try(${isSystemPath(Expr.ref<string>("r.target"))}, false) ? "system" :
            try(${firstRequest}[r.target][0] < r.index, false) ? "earlier" : null
          ),
          collides_with = try(one([for p in ${reserved} : p.what if p.path == r.target]), null),
        })
      ]`,
      "Each mount's one problem, if any: a mount the pod cannot have is dropped, never fatal.",
    );
    const kept = locals.add<unknown[]>(
      "kept_mounts",
      hcl`[for d in ${decisions} : d if d.problem == null]`,
      "Only mounts without a problem reach the pod; the others are warnings, never a failed plan.",
    );
    return { decisions, kept };
  }

  /** The container's volume mounts and the pod's volumes: the fixed ones and the kept mounts. */
  private volumes(
    locals: NamedLocals,
    props: DevcontainerMountsProps,
    kept: Expr<unknown[]>,
    folderMountPath: Expr<string>,
    claimName: string,
  ): { readonly volumeMounts: Expr<unknown[]>; readonly podVolumes: Expr<unknown[]> } {
    const volumeMounts = locals.add<unknown[]>(
      "volume_mounts",
      hcl`concat(
        [
          { name = ${DATA_VOLUME}, mount_path = ${props.homeDir}, sub_path = "home", read_only = false },
          { name = ${DATA_VOLUME}, mount_path = "/workspaces", sub_path = "workspaces", read_only = false },
          { name = ${DATA_VOLUME}, mount_path = ${folderMountPath}, sub_path = "workspace-folder", read_only = false },
        ],
        [for m in ${kept} : {
          name = m.kind == "volume" ? ${DATA_VOLUME} : format("tmpfs-%d", m.index),
          mount_path = m.target,
          sub_path = m.volume_dir,
          read_only = m.read_only,
        }],
        [{ name = ${SHM_VOLUME}, mount_path = "/dev/shm", sub_path = null, read_only = false }]
      )`,
      "Home, /workspaces and the folder are mounted on every pod, so no repository can drop them.",
    );
    const podVolumes = locals.add<unknown[]>(
      "pod_volumes",
      hcl`concat(
        [
          { name = ${DATA_VOLUME}, persistent_volume_claim = [{ claim_name = ${claimName}, read_only = false }], empty_dir = [] },
          { name = ${SHM_VOLUME}, persistent_volume_claim = [], empty_dir = [{ medium = "Memory", size_limit = ${props.shmSizeLimit} }] },
        ],
        [for m in ${kept} : {
          name = format("tmpfs-%d", m.index),
          persistent_volume_claim = [],
          empty_dir = [{ medium = "Memory", size_limit = null }],
        } if m.kind == "tmpfs"]
      )`,
      "A tmpfs mount is a memory-backed emptyDir: Kubernetes has no tmpfs volume of its own.",
    );
    return { volumeMounts, podVolumes };
  }

  /** What seed-home creates: each volume's directory, its seed, and the mount points' directories. */
  private seeds(
    locals: NamedLocals,
    props: DevcontainerMountsProps,
    kept: Expr<unknown[]>,
    mounted: Expr<boolean>,
    folder: Expr<string>,
    repositoryFolder: Expr<string>,
  ): {
    readonly seedVolumeDirs: Expr<string[]>;
    readonly seedVolumes: Expr<string[]>;
    readonly seedMountPointDirs: Expr<string[]>;
  } {
    const seedVolumeDirs = locals.add<string[]>(
      "seed_volume_dirs",
      hcl`distinct([for m in ${kept} : m.volume_dir if m.kind == "volume"])`,
      "seed-home creates each volume's directory as the remote user, not root as kubelet would.",
    );
    // Docker seeds a volume at the first mount that creates it; a second mount of the same
    // volume elsewhere sees that content.
    const seedVolumes = locals.add<string[]>(
      "seed_volumes",
      hcl`[for dir, targets in { for m in ${kept} : m.volume_dir => m.target... if m.kind == "volume" } : format("%s=%s", dir, targets[0])]`,
      "Docker seeds a volume at its first mount only: a second mount elsewhere sees that content.",
    );
    // A mount point lives in the mount that contains it; the longest matching prefix wins
    // (a mounted workspace folder inside the home, a home inside /workspaces).
    const parents = hcl`concat(
      [{ prefix = "/workspaces/", dir = "workspaces/" }, { prefix = format("%s/", ${props.homeDir}), dir = "home/" }],
      ${mounted} ? [{ prefix = format("%s/", ${repositoryFolder}), dir = "workspace-folder/" }] : []
    )`;
    const seedMountPointDirs = locals.add<string[]>(
      "seed_mount_point_dirs",
      hcl`distinct(compact([
        for path in concat(distinct([${repositoryFolder}, ${folder}]), [for m in ${kept} : m.target]) : try(one([
          for p in ${parents} : format("%s%s", p.dir, substr(path, length(p.prefix), -1))
          if startswith(path, p.prefix) && length(p.prefix) == max([for q in ${parents} : length(q.prefix) if startswith(path, q.prefix)]...)
        ]), null)
      ]))`,
      "A mount point is created inside the mount holding it, the longest matching prefix.",
    );
    return { seedVolumeDirs, seedVolumes, seedMountPointDirs };
  }

  /** `mount_warnings`: one line per mount that is not mounted, and why. */
  private warningLines(
    locals: NamedLocals,
    props: DevcontainerMountsProps,
    decisions: Expr<unknown[]>,
  ): Expr<string[]> {
    // The problems of a target, as its warning says them: one format() quotes the target.
    const targetProblems = locals.add<Record<string, string>>(
      "mount_target_problems",
      {
        target:
          "is not an absolute path usable as a mount point (letters, digits and . _ @ + , ~ - /, without . or .. segments)",
        long_target: `has a path segment longer than ${MAX_SEGMENT_BYTES} bytes, which cannot be created`,
        system:
          "is a system directory or lies under /proc, /sys or /dev, where nothing can be mounted",
      },
      "Three problems share one warning's wording: one format() quotes the target.",
    );
    return locals.add<string[]>(
      "mount_warnings",
      hcl`concat(can(slice(${props.mounts}, 0, 0)) && try(length(${props.mounts}), 0) > ${MOUNTS_READ} ? [format("mounts lists %d entries; only the first ${MOUNTS_READ} are read.", length(${props.mounts}))] : [], [
        for d in ${decisions} : (
          d.problem == "kind" ? format("mounts[%d]: kind %s is not supported (only volume and tmpfs); the mount at %s is not mounted.", d.index, jsonencode(d.kind), jsonencode(d.requested_target)) :
          contains(keys(${targetProblems}), d.problem) ? format("mounts[%d].target %s %s; the %s mount is not mounted.", d.index, ${quotedForWarning(Expr.ref("d.requested_target"))}, ${targetProblems}[d.problem], d.kind) :
          d.problem == "source" ? format("mounts[%d].source %s is not a volume name (letters, digits, _ . -); the volume mount at %s is not mounted.", d.index, jsonencode(d.source), d.target) :
          d.problem == "long_source" ? format("mounts[%d].source %s is longer than ${MAX_SEGMENT_BYTES} bytes, too long for its volume directory; the volume mount at %s is not mounted.", d.index, jsonencode(d.source), d.target) :
          d.problem == "reserved" ? format("The %s mount at %s is not mounted: that path is already a mount point (%s).", d.kind, d.target, d.collides_with) :
          format("The %s mount at %s is not mounted: that path is already a mount point (an earlier mount in mounts).", d.kind, d.target)
        ) if d.problem != null
      ])`,
    );
  }

  /**
   * Writes the mounts into a Deployment as dynamic blocks: `volume_mount` of container
   * `containerIndex` (the `dev` container) and the pod's `volume`s. Set neither in the typed
   * props: these replace them.
   */
  applyTo(deployment: DeploymentV1, containerIndex: number): void {
    const pod = "spec.template.spec";
    deployment.addOverride(`${pod}.container.${containerIndex}.dynamic.volume_mount`, {
      for_each: this.volumeMounts,
      iterator: "mount",
      content: {
        name: "${mount.value.name}",
        mount_path: "${mount.value.mount_path}",
        sub_path: "${mount.value.sub_path}",
        read_only: "${mount.value.read_only}",
      },
    });
    deployment.addOverride(`${pod}.dynamic.volume`, {
      for_each: this.podVolumes,
      iterator: "volume",
      content: {
        name: "${volume.value.name}",
        dynamic: {
          persistent_volume_claim: {
            for_each: "${volume.value.persistent_volume_claim}",
            iterator: "claim",
            content: {
              claim_name: "${claim.value.claim_name}",
              read_only: "${claim.value.read_only}",
            },
          },
          empty_dir: {
            for_each: "${volume.value.empty_dir}",
            iterator: "empty_dir",
            content: {
              medium: "${empty_dir.value.medium}",
              size_limit: "${empty_dir.value.size_limit}",
            },
          },
        },
      },
    });
  }
}

export interface SeedHomeInitContainerProps {
  /** The build's image (the same as the `dev` container's). */
  readonly image: string;
  /** The seed-home shell script, run with `sh -c` (it must `set -eu`). */
  readonly script: string;
  /** The remote user's home ({@link DevcontainerWorkspaceUser.homeDir}). */
  readonly homeDir: Expr<string>;
  /** The workspace's mounts, for the directories to create. */
  readonly mounts: DevcontainerMounts;
}

/**
 * The `seed-home` init container (spec §9): runs the image as the remote user (the pod's
 * security context) with the whole PVC at /mnt/data, creates the subPath and mount-point
 * directories, copies the image's home on the first start and seeds each volume from the
 * image on its first use. Its script reads HOME_DIR, VOLUME_DIRS and MOUNT_POINT_DIRS
 * (space-separated, PVC-relative) and SEED_VOLUMES (`<volume dir>=<target>`).
 */
export function seedHomeInitContainer(
  props: SeedHomeInitContainerProps,
): DeploymentV1SpecTemplateSpecInitContainer {
  return {
    name: "seed-home",
    image: props.image,
    imagePullPolicy: "IfNotPresent",
    command: ["sh", "-c", props.script],
    env: [
      { name: "HOME_DIR", value: props.homeDir.asString },
      {
        name: "VOLUME_DIRS",
        value: hcl<string>`join(" ", ${props.mounts.seedVolumeDirs})`.asString,
      },
      {
        name: "MOUNT_POINT_DIRS",
        value: hcl<string>`join(" ", ${props.mounts.seedMountPointDirs})`.asString,
      },
      { name: "SEED_VOLUMES", value: hcl<string>`join(" ", ${props.mounts.seedVolumes})`.asString },
    ],
    resources: {
      requests: { cpu: "50m", memory: "64Mi" },
      limits: { cpu: "500m", memory: "256Mi" },
    },
    volumeMount: [{ name: DATA_VOLUME, mountPath: SEED_HOME_DATA_MOUNT }],
  };
}

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DeploymentV1 } from "@cdktf/provider-kubernetes/lib/deployment-v1";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { App, TerraformOutput, TerraformStack, TerraformVariable } from "../../lib/core/cdk";
import { Expr, hcl } from "../../lib/core/expr";
import { DevcontainerMounts, seedHomeInitContainer } from "../../lib/devcontainer/mounts";
import { DevcontainerRuntime } from "../../lib/devcontainer/runtime";
import { DevcontainerWorkspaceFolder } from "../../lib/devcontainer/workspace-folder";
import { DevcontainerWorkspaceUser } from "../../lib/devcontainer/workspace-user";
import {
  type ExpressionPlan,
  planExpressions,
  TerraformHarness,
} from "@coder-cdktf/terraform-harness";

const WORKSPACE_ID = "8f14e45f-ceea-467f-a0e6-0a1b2c3d4e5f";
const CLAIM = `coder-${WORKSPACE_ID}-data`;
const UNUSED = "/mnt/.devcontainer-unused-workspace-folder";

interface MountCase {
  readonly mounts: unknown;
  readonly workspaceFolder: string;
  readonly mounted: boolean;
  readonly homeDir: string;
}

/** Every rule in one list; the comments give each entry's expected fate. */
const MANY_MOUNTS = [
  // 0 kept: placeholders in source and target; mount point inside the mounted folder
  {
    kind: "volume",
    source: "${localWorkspaceFolderBasename}-node_modules",
    target: "${containerWorkspaceFolder}/node_modules",
    read_only: false,
  },
  // 1 kept: anonymous volume (null source), trailing slash removed, under the home
  { kind: "volume", source: null, target: "/home/vscode/.cache/", read_only: null },
  // 2 kept: tmpfs outside every PVC mount (no mount-point dir)
  { kind: "tmpfs", source: null, target: "/tmp/scratch", read_only: false },
  // 3 kept: ${devcontainerId} in the source, read-only, under /workspaces
  {
    kind: "volume",
    source: "cache-${devcontainerId}",
    target: "/workspaces/data",
    read_only: true,
  },
  // 4 dropped: the home
  { kind: "volume", source: "home", target: "/home/vscode", read_only: false },
  // 5 dropped: /workspaces (with a trailing slash)
  { kind: "tmpfs", source: null, target: "/workspaces/", read_only: false },
  // 6 dropped: the workspace folder
  { kind: "volume", source: "src", target: "${localWorkspaceFolder}", read_only: false },
  // 7 dropped: /dev/shm
  { kind: "tmpfs", source: null, target: "/dev/shm", read_only: false },
  // 8 dropped: same target as 2
  { kind: "volume", source: "x", target: "/tmp/scratch", read_only: false },
  // 9 dropped: not a volume name
  { kind: "volume", source: "bad name", target: "/data", read_only: false },
  // 10 dropped: same target as 9, which was itself dropped
  { kind: "tmpfs", source: null, target: "/data", read_only: false },
  // 11 dropped: bind mounts are not supported
  { kind: "bind", source: "/host", target: "/host", read_only: false },
  // 12 dropped: relative target
  { kind: "volume", source: "rel", target: "relative/path", read_only: false },
  // 13 dropped: a null entry
  null,
  // 14 kept: tmpfs, named after its index in the requested list
  { kind: "tmpfs", source: "", target: "/opt/tmp", read_only: true },
  // 15 kept: empty source = anonymous volume, mount point under the home
  { kind: "volume", source: "  ", target: "/home/vscode/.local/share", read_only: false },
];

/** System directories, repeated slashes and overlong segments; the comments give each fate. */
const PATH_MOUNTS = [
  // 0-3 dropped: a system directory, or under /proc, /sys or /dev
  { kind: "tmpfs", source: null, target: "/proc", read_only: false },
  { kind: "volume", source: "cg", target: "/sys/fs/cgroup", read_only: false },
  { kind: "volume", source: "usr", target: "/usr", read_only: false },
  { kind: "tmpfs", source: null, target: "/etc/", read_only: false },
  // 4 dropped: /workspaces once the slashes are collapsed
  { kind: "tmpfs", source: null, target: "//workspaces", read_only: false },
  // 5 kept at /a/b
  { kind: "volume", source: "ab", target: "/a//b", read_only: false },
  // 6 dropped: the same path as 5
  { kind: "tmpfs", source: null, target: "/a/b", read_only: false },
  // 7 dropped: the home
  { kind: "volume", source: "h", target: "/home//vscode", read_only: false },
  // 8, 9 kept: below a system directory other than /proc, /sys, /dev
  { kind: "volume", source: "src", target: "/usr/src/app", read_only: false },
  { kind: "tmpfs", source: null, target: "/var/lib/x", read_only: false },
  // 10 dropped: under /dev
  { kind: "tmpfs", source: null, target: "/dev/fuse", read_only: false },
  // 11 dropped: a segment of 128 two-byte letters is 256 bytes
  { kind: "tmpfs", source: null, target: `/x/${"é".repeat(128)}`, read_only: false },
  // 12 kept: a segment of 255 bytes
  { kind: "tmpfs", source: null, target: `/x/${"a".repeat(255)}`, read_only: false },
  // 13 dropped: a 256-byte source cannot be a directory name; 14 kept: 255 bytes
  { kind: "volume", source: "s".repeat(256), target: "/data2", read_only: false },
  { kind: "volume", source: "s".repeat(255), target: "/data3", read_only: false },
  // 15 kept inside the mounted folder, slashes collapsed; 16 dropped: the folder itself
  { kind: "volume", source: "sub", target: "${containerWorkspaceFolder}//sub", read_only: false },
  { kind: "tmpfs", source: null, target: "//src//widgets", read_only: false },
  // 17 dropped: a system directory after the slashes are collapsed
  { kind: "tmpfs", source: null, target: "//proc//1", read_only: false },
];

const CASES = {
  // Stopped (or a pre-0.3.0 service): no mounts, the fallbacks of §6.
  stopped: {
    mounts: null,
    workspaceFolder: "/workspaces/widgets",
    mounted: false,
    homeDir: "/root",
  },
  many: {
    mounts: MANY_MOUNTS,
    workspaceFolder: "/src/widgets",
    mounted: true,
    homeDir: "/home/vscode",
  },
  // The folder under /workspaces: the unused mount path is taken, the folder itself is not.
  unmountedFolder: {
    mounts: [
      { kind: "volume", source: "a", target: UNUSED, read_only: false },
      {
        kind: "volume",
        source: "b",
        target: "${containerWorkspaceFolder}/.venv",
        read_only: false,
      },
    ],
    workspaceFolder: "/workspaces/widgets",
    mounted: false,
    homeDir: "/home/dev",
  },
  paths: {
    mounts: PATH_MOUNTS,
    workspaceFolder: "/src/widgets",
    mounted: true,
    homeDir: "/home/vscode",
  },
  notAList: {
    mounts: "volume".repeat(50),
    workspaceFolder: "/workspaces/w",
    mounted: false,
    homeDir: "/root",
  },
  // One more than is read: the last is left out, with a warning.
  tooMany: {
    mounts: Array.from({ length: 201 }, (_, i) => ({
      kind: "tmpfs",
      source: null,
      target: `/t/${i}`,
      read_only: false,
    })),
    workspaceFolder: "/workspaces/w",
    mounted: false,
    homeDir: "/root",
  },
} satisfies Record<string, MountCase>;

type CaseName = keyof typeof CASES;

interface VolumeMount {
  name: string;
  mount_path: string;
  sub_path: string | null;
  read_only: boolean;
}
interface MountsResult {
  volume_mounts: VolumeMount[];
  pod_volumes: unknown[];
  seed_volume_dirs: string[];
  seed_mount_point_dirs: string[];
  warnings: string[];
}

const fixedMounts = (home: string, folderMount: string): VolumeMount[] => [
  { name: "data", mount_path: home, sub_path: "home", read_only: false },
  { name: "data", mount_path: "/workspaces", sub_path: "workspaces", read_only: false },
  { name: "data", mount_path: folderMount, sub_path: "workspace-folder", read_only: false },
];
const SHM_MOUNT: VolumeMount = {
  name: "dshm",
  mount_path: "/dev/shm",
  sub_path: null,
  read_only: false,
};
const dataVolume = {
  name: "data",
  persistent_volume_claim: [{ claim_name: CLAIM, read_only: false }],
  empty_dir: [],
};
const shmVolume = (size: string) => ({
  name: "dshm",
  persistent_volume_claim: [],
  empty_dir: [{ medium: "Memory", size_limit: size }],
});
const tmpfsVolume = (index: number) => ({
  name: `tmpfs-${index}`,
  persistent_volume_claim: [],
  empty_dir: [{ medium: "Memory", size_limit: null }],
});

describe("DevcontainerMounts (expressions)", () => {
  let plan: ExpressionPlan;
  beforeAll(async () => {
    const variables: Record<string, unknown> = {};
    plan = await planExpressions((stack) => {
      for (const [name, c] of Object.entries(CASES) as [CaseName, MountCase][]) {
        variables[`${name}_mounts`] = c.mounts;
        const mountsVariable = new TerraformVariable(stack, `${name}_mounts`, {
          type: "any",
          nullable: true,
        });
        const mounts = new DevcontainerMounts(stack, name, {
          mounts: Expr.of<unknown[]>(mountsVariable.value),
          workspaceFolder: Expr.of<string>(c.workspaceFolder),
          workspaceFolderMounted: Expr.of<boolean>(c.mounted),
          homeDir: Expr.of<string>(c.homeDir),
          workspaceId: Expr.of<string>(WORKSPACE_ID),
          shmSizeLimit: Expr.of<string>("64Mi"),
          claimName: CLAIM,
          localPrefix: `${name}_`,
        });
        new TerraformOutput(stack, `${name}_out`, {
          value: {
            volume_mounts: mounts.volumeMounts,
            pod_volumes: mounts.podVolumes,
            seed_volume_dirs: mounts.seedVolumeDirs,
            seed_mount_point_dirs: mounts.seedMountPointDirs,
            warnings: mounts.warnings,
          },
        });
      }
    }, variables);
  }, 60_000);

  const result = (name: CaseName) => plan.values[`${name}_out`] as MountsResult;

  it("mounts home, /workspaces, the workspace-folder placeholder and /dev/shm while stopped", () => {
    expect(result("stopped")).toEqual({
      volume_mounts: [...fixedMounts("/root", UNUSED), SHM_MOUNT],
      pod_volumes: [dataVolume, shmVolume("64Mi")],
      seed_volume_dirs: [],
      seed_mount_point_dirs: ["workspaces/widgets"],
      warnings: [],
    });
  });

  it("treats mounts that are not a list like no mounts", () => {
    expect(result("notAList").volume_mounts).toEqual([...fixedMounts("/root", UNUSED), SHM_MOUNT]);
    expect(result("notAList").warnings).toEqual([]);
  });

  it("reads the first 200 mounts of a longer list and says so", () => {
    const r = result("tooMany");
    expect(r.warnings).toEqual(["mounts lists 201 entries; only the first 200 are read."]);
    expect(r.volume_mounts.map((m) => m.mount_path)).toEqual([
      ...fixedMounts("/root", UNUSED).map((m) => m.mount_path),
      ...Array.from({ length: 200 }, (_, i) => `/t/${i}`),
      "/dev/shm",
    ]);
  });

  it("keeps volume and tmpfs mounts with placeholders substituted, indexes counted before dropping", () => {
    const r = result("many");
    expect(r.volume_mounts).toEqual([
      ...fixedMounts("/home/vscode", "/src/widgets"),
      {
        name: "data",
        mount_path: "/src/widgets/node_modules",
        sub_path: "volumes/widgets-node_modules",
        read_only: false,
      },
      {
        name: "data",
        mount_path: "/home/vscode/.cache",
        sub_path: "volumes/anonymous-1",
        read_only: false,
      },
      { name: "tmpfs-2", mount_path: "/tmp/scratch", sub_path: null, read_only: false },
      {
        name: "data",
        mount_path: "/workspaces/data",
        sub_path: `volumes/cache-${WORKSPACE_ID}`,
        read_only: true,
      },
      { name: "tmpfs-14", mount_path: "/opt/tmp", sub_path: null, read_only: true },
      {
        name: "data",
        mount_path: "/home/vscode/.local/share",
        sub_path: "volumes/anonymous-15",
        read_only: false,
      },
      SHM_MOUNT,
    ]);
    expect(r.pod_volumes).toEqual([dataVolume, shmVolume("64Mi"), tmpfsVolume(2), tmpfsVolume(14)]);
  });

  it("drops each colliding or unusable mount with exactly one warning", () => {
    const w = result("many").warnings;
    expect(w).toEqual([
      "The volume mount at /home/vscode is not mounted: that path is already a mount point (the home directory).",
      "The tmpfs mount at /workspaces is not mounted: that path is already a mount point (/workspaces).",
      "The volume mount at /src/widgets is not mounted: that path is already a mount point (the workspace folder).",
      "The tmpfs mount at /dev/shm is not mounted: that path is already a mount point (/dev/shm).",
      "The volume mount at /tmp/scratch is not mounted: that path is already a mount point (an earlier mount in mounts).",
      expect.stringMatching(/^mounts\[9\]\.source "bad name" .* \/data /),
      "The tmpfs mount at /data is not mounted: that path is already a mount point (an earlier mount in mounts).",
      expect.stringMatching(/^mounts\[11\]: kind "bind" .* "\/host" /),
      expect.stringMatching(/^mounts\[12\]\.target "relative\/path" .*volume mount/),
      expect.stringMatching(/^mounts\[13\]: kind null /),
    ]);
  });

  it("lists the volume dirs and the mount points seed-home creates, by containing mount", () => {
    const r = result("many");
    expect(r.seed_volume_dirs).toEqual([
      "volumes/widgets-node_modules",
      "volumes/anonymous-1",
      `volumes/cache-${WORKSPACE_ID}`,
      "volumes/anonymous-15",
    ]);
    // The folder itself is its own mount (no dir); /tmp/scratch and /opt/tmp are on no PVC mount.
    expect(r.seed_mount_point_dirs).toEqual([
      "workspace-folder/node_modules",
      "home/.cache",
      "workspaces/data",
      "home/.local/share",
    ]);
  });

  it("mounts collapsed targets, below system directories other than /proc, /sys and /dev", () => {
    expect(result("paths").volume_mounts).toEqual([
      ...fixedMounts("/home/vscode", "/src/widgets"),
      { name: "data", mount_path: "/a/b", sub_path: "volumes/ab", read_only: false },
      { name: "data", mount_path: "/usr/src/app", sub_path: "volumes/src", read_only: false },
      { name: "tmpfs-9", mount_path: "/var/lib/x", sub_path: null, read_only: false },
      { name: "tmpfs-12", mount_path: `/x/${"a".repeat(255)}`, sub_path: null, read_only: false },
      {
        name: "data",
        mount_path: "/data3",
        sub_path: `volumes/${"s".repeat(255)}`,
        read_only: false,
      },
      { name: "data", mount_path: "/src/widgets/sub", sub_path: "volumes/sub", read_only: false },
      SHM_MOUNT,
    ]);
    expect(result("paths").seed_mount_point_dirs).toEqual(["workspace-folder/sub"]);
  });

  it("drops system directories, collapsed duplicates and overlong segments, quoting the value", () => {
    const system = (i: number, target: string, kind: string) =>
      `mounts[${i}].target ${JSON.stringify(target)} is a system directory or lies under /proc, /sys or /dev, where nothing can be mounted; the ${kind} mount is not mounted.`;
    expect(result("paths").warnings).toEqual([
      system(0, "/proc", "tmpfs"),
      system(1, "/sys/fs/cgroup", "volume"),
      system(2, "/usr", "volume"),
      system(3, "/etc/", "tmpfs"),
      "The tmpfs mount at /workspaces is not mounted: that path is already a mount point (/workspaces).",
      "The tmpfs mount at /a/b is not mounted: that path is already a mount point (an earlier mount in mounts).",
      "The volume mount at /home/vscode is not mounted: that path is already a mount point (the home directory).",
      system(10, "/dev/fuse", "tmpfs"),
      `mounts[11].target ${JSON.stringify(`/x/${"é".repeat(128)}`)} has a path segment longer than 255 bytes, which cannot be created; the tmpfs mount is not mounted.`,
      `mounts[13].source ${JSON.stringify("s".repeat(256))} is longer than 255 bytes, too long for its volume directory; the volume mount at /data2 is not mounted.`,
      "The tmpfs mount at /src/widgets is not mounted: that path is already a mount point (the workspace folder).",
      system(17, "//proc//1", "tmpfs"),
    ]);
  });
  it("reserves the unused workspace-folder path, not the unmounted folder", () => {
    const r = result("unmountedFolder");
    expect(r.warnings).toEqual([
      `The volume mount at ${UNUSED} is not mounted: that path is already a mount point (the unused workspace-folder mount).`,
    ]);
    expect(r.volume_mounts).toContainEqual({
      name: "data",
      mount_path: "/workspaces/widgets/.venv",
      sub_path: "volumes/b",
      read_only: false,
    });
    expect(r.seed_mount_point_dirs).toEqual(["workspaces/widgets", "workspaces/widgets/.venv"]);
  });
});

/** The devcontainer data source's values a pod depends on (null = not read). */
interface PodInputs {
  readonly remote_user: string | null;
  readonly workspace_folder: string | null;
  readonly runtime: Record<string, unknown> | null;
  readonly mounts: unknown;
}

const STARTED: PodInputs = {
  remote_user: "vscode",
  workspace_folder: "/src/${localWorkspaceFolderBasename}",
  runtime: {
    remote_user_uid: 1001,
    remote_user_gid: 1001,
    remote_user_home: "/home/vscode",
    cap_add: ["SYS_PTRACE", "CHOWN"],
    privileged: false,
    seccomp_unconfined: true,
    init: true,
    shm_size_bytes: 134217728,
    hostname: "devbox",
    host_aliases: [{ ip: "10.0.0.5", hostnames: ["db.local"] }],
  },
  mounts: [
    { kind: "volume", source: null, target: "/home/vscode/.cache", read_only: false },
    { kind: "tmpfs", source: null, target: "/tmp/t", read_only: true },
  ],
};
const STOPPED: PodInputs = {
  remote_user: null,
  workspace_folder: null,
  runtime: null,
  mounts: null,
};

/** An attribute name spliced into an HCL expression as-is (test constants only). */
function rawAttribute(name: string): { resolve: () => string; creationStack: string[] } {
  return { resolve: () => name, creationStack: [] };
}

/**
 * A pod built from the four constructs the way the devcontainer template wires them, one
 * Deployment per input set, planned against the mock kubernetes provider.
 */
describe("mapping outputs in a kubernetes_deployment_v1 (mock provider)", () => {
  let tf: TerraformHarness;
  let outdir: string;
  beforeAll(async () => {
    tf = await TerraformHarness.start();
    outdir = mkdtempSync(join(tmpdir(), "dc-mapping-"));
  }, 60_000);
  afterAll(async () => {
    await tf.stop();
    rmSync(outdir, { recursive: true, force: true });
  });

  function podStack(): TerraformStack {
    const app = new App({ outdir });
    const stack = new TerraformStack(app, "pod");
    new KubernetesProvider(stack, "kubernetes", {});
    const allowPrivileged = new TerraformVariable(stack, "allow_privileged", { type: "bool" });
    for (const name of ["started", "stopped"]) {
      // The template reads the data source through one(…[*]), which marks the whole object
      // sensitive (registry_credentials): dynamic blocks must work with such values.
      const dc = new TerraformVariable(stack, `${name}_dc`, {
        type: "any",
        sensitive: name === "started",
      });
      const field = <T>(f: string) => hcl<T>`try(${dc.value}.${rawAttribute(f)}, null)`;
      const user = new DevcontainerWorkspaceUser(stack, `${name}_user`, {
        remoteUser: field<string>("remote_user"),
        runtime: field("runtime"),
        metadataRead: hcl`try(${dc.value}.runtime != null, false)`,
        localPrefix: `${name}_`,
      });
      const folder = new DevcontainerWorkspaceFolder(stack, `${name}_folder`, {
        repository: Expr.of<string>("https://github.com/acme/widgets.git"),
        workspaceFolder: field<string>("workspace_folder"),
        workspaceId: Expr.of<string>(WORKSPACE_ID),
        homeDir: user.homeDir,
        localPrefix: `${name}_`,
      });
      const runtime = new DevcontainerRuntime(stack, `${name}_runtime`, {
        runtime: field("runtime"),
        allowPrivileged: Expr.of<boolean>(allowPrivileged.booleanValue),
        localPrefix: `${name}_`,
      });
      const mounts = new DevcontainerMounts(stack, `${name}_mounts`, {
        mounts: field<unknown[]>("mounts"),
        workspaceFolder: folder.path,
        workspaceFolderMounted: folder.mounted,
        homeDir: user.homeDir,
        workspaceId: Expr.of<string>(WORKSPACE_ID),
        shmSizeLimit: runtime.shmSizeLimit,
        claimName: CLAIM,
        localPrefix: `${name}_`,
      });
      const deployment = new DeploymentV1(stack, name, {
        metadata: { name: `coder-${name}`, namespace: "coder" },
        spec: {
          selector: { matchLabels: { app: name } },
          template: {
            metadata: { labels: { app: name } },
            spec: {
              securityContext: {
                runAsUser: user.uid.asString,
                runAsGroup: user.gid.asString,
                fsGroup: user.gid.asString,
                fsGroupChangePolicy: "OnRootMismatch",
              },
              shareProcessNamespace: runtime.shareProcessNamespace,
              hostname: runtime.hostname.asString,
              initContainer: [
                seedHomeInitContainer({
                  image: "registry.example/widgets:ws-1",
                  script: "set -eu\necho seeding",
                  homeDir: user.homeDir,
                  mounts,
                }),
              ],
              container: [
                {
                  name: "dev",
                  image: "registry.example/widgets:ws-1",
                  securityContext: runtime.containerSecurityContext,
                },
              ],
            },
          },
        },
      });
      mounts.applyTo(deployment, 0);
      runtime.applyTo(deployment, 0);
    }
    app.synth();
    return stack;
  }

  it("plans the volumes, mounts, init container and runtime blocks of a started and a stopped pod", async () => {
    podStack();
    const plan = await tf.plan(join(outdir, "stacks", "pod"), {
      variables: { allow_privileged: true, started_dc: STARTED, stopped_dc: STOPPED },
    });
    type Pod = Record<string, any>;
    const pod = (name: string): Pod =>
      (plan.resource(`kubernetes_deployment_v1.${name}`).after.spec as Pod[])[0].template[0]
        .spec[0];

    const started = pod("started");
    expect(started.security_context[0]).toMatchObject({
      run_as_user: "1001",
      run_as_group: "1001",
      fs_group: "1001",
    });
    expect(started.share_process_namespace).toBe(true);
    expect(started.hostname).toBe("devbox");
    expect(started.host_aliases).toEqual([{ ip: "10.0.0.5", hostnames: ["db.local"] }]);
    const dev = started.container[0];
    expect(dev.security_context[0]).toMatchObject({
      privileged: false,
      capabilities: [{ add: ["SYS_PTRACE", "CHOWN"] }],
      seccomp_profile: [{ type: "Unconfined" }],
    });
    expect(
      dev.volume_mount.map((m: Pod) => [m.name, m.mount_path, m.sub_path, m.read_only]),
    ).toEqual([
      ["data", "/home/vscode", "home", false],
      ["data", "/workspaces", "workspaces", false],
      ["data", "/src/widgets", "workspace-folder", false],
      ["data", "/home/vscode/.cache", "volumes/anonymous-0", false],
      ["tmpfs-1", "/tmp/t", null, true],
      ["dshm", "/dev/shm", null, false],
    ]);
    expect(
      started.volume.map((v: Pod) => [
        v.name,
        v.persistent_volume_claim[0]?.claim_name ?? null,
        v.empty_dir[0] ? [v.empty_dir[0].medium, v.empty_dir[0].size_limit] : null,
      ]),
    ).toEqual([
      ["data", CLAIM, null],
      ["dshm", null, ["Memory", "134217728"]],
      ["tmpfs-1", null, ["Memory", null]],
    ]);
    const seed = started.init_container[0];
    expect(seed).toMatchObject({
      name: "seed-home",
      image: "registry.example/widgets:ws-1",
      image_pull_policy: "IfNotPresent",
      command: ["sh", "-c", "set -eu\necho seeding"],
      volume_mount: [expect.objectContaining({ name: "data", mount_path: "/mnt/data" })],
    });
    expect(seed.env).toEqual([
      expect.objectContaining({ name: "HOME_DIR", value: "/home/vscode" }),
      expect.objectContaining({ name: "VOLUME_DIRS", value: "volumes/anonymous-0" }),
      expect.objectContaining({ name: "MOUNT_POINT_DIRS", value: "home/.cache" }),
      expect.objectContaining({
        name: "SEED_VOLUMES",
        value: "volumes/anonymous-0=/home/vscode/.cache",
      }),
    ]);
    expect(seed.resources[0]).toMatchObject({
      requests: { cpu: "50m", memory: "64Mi" },
      limits: { cpu: "500m", memory: "256Mi" },
    });

    const stopped = pod("stopped");
    expect(stopped.security_context[0]).toMatchObject({
      run_as_user: "1000",
      run_as_group: "1000",
    });
    expect(stopped.share_process_namespace).toBe(false);
    expect(stopped.host_aliases).toEqual([]);
    expect(stopped.container[0].security_context[0]).toMatchObject({
      privileged: false,
      capabilities: [{ add: [] }],
      seccomp_profile: [],
    });
    expect(stopped.container[0].volume_mount.map((m: Pod) => [m.mount_path, m.sub_path])).toEqual([
      ["/root", "home"],
      ["/workspaces", "workspaces"],
      [UNUSED, "workspace-folder"],
      ["/dev/shm", null],
    ]);
    expect(stopped.volume.map((v: Pod) => v.name)).toEqual(["data", "dshm"]);
    expect(stopped.volume[1].empty_dir[0].size_limit).toBe("64Mi");
    expect(stopped.init_container[0].env.map((e: Pod) => e.value)).toEqual([
      "/root",
      "",
      "workspaces/widgets",
      "",
    ]);
  }, 60_000);
});

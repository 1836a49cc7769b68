/**
 * Bad input for the devcontainer template: Dev Container metadata as a repository with an odd
 * devcontainer.json (or an old or sparse devcontainer-builder) makes the data source return it,
 * and what a started workspace plans from it.
 *
 * "A repository's odd devcontainer.json yields build-log warnings, never a failed plan": the
 * matrix and the random fixtures both plan the whole template on top of a stopped workspace's
 * state (so the data source is read during plan, as on every start after the first build) and
 * check the workspace with {@link saneWorkspaceProblems}.
 *
 * Fixtures follow the provider schema's types, since the mock provider encodes values by type:
 * "wrong types" live inside the JSON strings (configuration_json, settings_json, gpu_json) and
 * in values such as "", -1 or 1e30 in typed fields.
 */
import { isIP } from "node:net";
import {
  type ApplyResult,
  CHECK_FAILED_SUMMARY,
  mergeStates,
  nestState,
  type PlanResult,
  type PlannedResource,
  prepareModuleBatch,
  KubernetesApiError,
  TerraformError,
  TerraformHarness,
  type TerraformState,
} from "@coder-cdktf/terraform-harness";
import { VARIABLES_MESSAGE, WARNINGS_HEADING } from "../../../lib/devcontainer/warnings";
import {
  isValidResourceName,
  quantityValue,
} from "../../../lib/devcontainer/kubernetes-quantities";
import { ARCH_NODE_LABEL } from "../../../lib/devcontainer/placement";
import { BASELINE_CAPABILITIES } from "../../../lib/devcontainer/runtime";
import {
  DISPLAY_NAME_MAX_BYTES,
  EXTENSION_ID_PATTERN,
  POD_PATH_PATTERN,
  USER_NAME_PATTERN,
  WORKSPACE_FOLDER_PATTERN,
} from "../../../lib/devcontainer/repository-values";
import {
  BUILD_VALUES,
  devcontainerFixtures,
  REPOSITORY,
  REQUIRED_VARIABLES,
  synthesizeDevcontainer,
  type SynthesizedDevcontainer,
  STOPPED_FIRST_BUILD,
} from "./synthesized";

/** Attribute values of `data.devcontainerbuilder_devcontainer` (plain JSON, schema types). */
export type DevcontainerMetadata = Readonly<Record<string, unknown>>;

// --- Fixtures ---------------------------------------------------------------------------------

/** Metadata of a plain, valid image (service 0.3.0): the starting point every case varies. */
export const VALID_METADATA: DevcontainerMetadata = {
  id: "sha256:4f1c0e2d9b8a7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d",
  digest: "sha256:9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b",
  remote_user: "vscode",
  container_user: "vscode",
  workspace_folder: "/workspaces/app",
  configuration_json: JSON.stringify({
    remoteUser: "vscode",
    customizations: { vscode: [{ extensions: ["dbaeumer.vscode-eslint"] }] },
  }),
  metadata_json: JSON.stringify([{ remoteUser: "vscode" }]),
  extensions: ["dbaeumer.vscode-eslint"],
  settings_json: JSON.stringify({ "editor.formatOnSave": true }),
  lifecycle_scripts: { postCreateCommand: "#!/bin/sh\nset -e\nnpm ci\n" },
  env_scripts: { containerEnv: 'export NODE_ENV="development"\n' },
  variables: [],
  warnings: [],
  forward_ports: [{ port: 3000, label: "App", protocol: "http", on_auto_forward: "notify" }],
  mounts: [],
  runtime: {
    remote_user_uid: 1000,
    remote_user_gid: 1000,
    remote_user_home: "/home/vscode",
    cap_add: [],
    privileged: false,
    init: false,
    seccomp_unconfined: false,
    shm_size_bytes: null,
    hostname: null,
    host_aliases: [],
  },
  host_requirements: { cpus: null, memory_bytes: null, storage_bytes: null, gpu_json: null },
};

// --- Planning ---------------------------------------------------------------------------------

/** Template inputs of one plan besides the metadata. */
export interface PlanInputs {
  /** Template variables, added to the required ones. @default {} */
  readonly variables?: Readonly<Record<string, unknown>>;
  /** Workspace parameters, added to the repository. @default {} */
  readonly parameters?: Readonly<Record<string, unknown>>;
}

/**
 * The template synthesized once and a stopped workspace's state (the build exists, the data
 * source is not read). Each {@link plan} starts that workspace with the given metadata, which
 * the data source then reads during the plan, as on every start after the first build.
 */
export class BadInputPlanner {
  private constructor(
    private readonly tf: TerraformHarness,
    private readonly template: SynthesizedDevcontainer,
    private readonly stopped: ApplyResult,
  ) {}

  static async start(): Promise<BadInputPlanner> {
    const tf = await TerraformHarness.start();
    let template: SynthesizedDevcontainer | undefined;
    try {
      template = synthesizeDevcontainer();
      const stopped = await tf.apply(template.dir, STOPPED_FIRST_BUILD);
      return new BadInputPlanner(tf, template, stopped);
    } catch (error) {
      template?.cleanup();
      await tf.stop();
      throw error;
    }
  }

  async stop(): Promise<void> {
    this.template.cleanup();
    await this.tf.stop();
  }

  /**
   * Plans the started workspace. The metadata is the data source's attributes as the provider
   * returns them: an attribute set to null stays null (an old or sparse service).
   */
  async plan(metadata: DevcontainerMetadata, inputs: PlanInputs = {}): Promise<PlannedWorkspace> {
    try {
      const plan = await this.tf.plan(this.template.dir, {
        state: this.stopped,
        // The stopped state never changes between cases: skip refreshing it.
        refresh: false,
        variables: { ...REQUIRED_VARIABLES, ...inputs.variables },
        parameters: { repository: REPOSITORY, ...inputs.parameters },
        fixtures: devcontainerFixtures(metadata),
      });
      return new PlannedWorkspace(plan);
    } catch (error) {
      if (error instanceof TerraformError || error instanceof KubernetesApiError) {
        throw new Error(`the plan failed:\n${error.message}`, { cause: error });
      }
      throw error;
    }
  }

  /**
   * Plans many cases, as {@link plan} would one by one, but cases with the same workspace
   * parameters in one Terraform run (up to {@link MAX_BATCH_SIZE} cases a run, more make more
   * runs of even sizes): as instances of a module batch, each on its own copy of
   * the stopped workspace (~0.25 s per case instead of ~0.7 s). The instances' copies differ
   * in the build's resolved tag, which the data source is configured with, so each reads its
   * own metadata. When a batch's plan fails, its cases are planned alone, so that each failure
   * shows Terraform's message for its own case. Results are in the order of `cases`.
   */
  planMany(cases: readonly PlanCase[]): Promise<PlannedWorkspace>[] {
    const groups = new Map<string, number[]>();
    cases.forEach((c, index) => {
      const key = JSON.stringify(c.inputs?.parameters ?? {});
      groups.set(key, [...(groups.get(key) ?? []), index]);
    });
    const results: Promise<PlannedWorkspace>[] = [];
    // One batch at a time: a batch's plan already keeps both cores busy.
    let previous: Promise<unknown> = Promise.resolve();
    for (const indices of [...groups.values()].flatMap(batchesOf)) {
      const batch = previous.then(() => this.planBatch(indices.map((i) => cases[i])));
      previous = batch.catch(() => undefined);
      indices.forEach((caseIndex, n) => {
        const result = batch.then((settled) => {
          const outcome = settled[n];
          return outcome.status === "fulfilled" ? outcome.value : Promise.reject(outcome.reason);
        });
        // Each case's test reports its own failure, whenever it awaits the result.
        result.catch(() => undefined);
        results[caseIndex] = result;
      });
    }
    return results;
  }

  /** Plans cases that share their parameters in one module batch; see {@link planMany}. */
  private async planBatch(
    cases: readonly PlanCase[],
  ): Promise<PromiseSettledResult<PlannedWorkspace>[]> {
    const keys = cases.map((_, n) => `c${n}`);
    const tag = (key: string) => `${BUILD_VALUES.resolved_tag}-${key}`;
    const batch = prepareModuleBatch(
      this.template.dir,
      Object.fromEntries(keys.map((key, n) => [key, cases[n].inputs?.variables ?? {}])),
    );
    try {
      const state = mergeStates(
        keys.map((key) =>
          withBuildTag(nestState(this.stopped.state, batch.instanceAddress(key)), tag(key)),
        ),
      );
      const plan = await this.tf.plan(batch.dir, {
        state,
        refresh: false,
        // Each instance answers for its own objects (below), not the batch for all of them.
        kubernetesApi: "report",
        variables: REQUIRED_VARIABLES,
        parameters: { repository: REPOSITORY, ...cases[0].inputs?.parameters },
        fixtures: {
          ...devcontainerFixtures(null),
          data_sources: {
            devcontainerbuilder_devcontainer: keys.map((key, n) => ({
              match: { tag: tag(key) },
              values: cases[n].metadata,
            })),
          },
        },
      });
      return keys.map((key): PromiseSettledResult<PlannedWorkspace> => {
        const instance = plan.instance(batch.instanceAddress(key));
        const { violations } = instance.kubernetesApi();
        return violations.length > 0
          ? {
              status: "rejected",
              reason: new Error(`the plan failed:\n${new KubernetesApiError(violations).message}`),
            }
          : { status: "fulfilled", value: new PlannedWorkspace(instance) };
      });
    } catch (error) {
      if (!(error instanceof TerraformError)) throw error;
      // Attribute the failure: plan each case alone (only ever slow when something is broken).
      return await Promise.allSettled(cases.map((c) => this.plan(c.metadata, c.inputs)));
    } finally {
      batch.cleanup();
    }
  }
}

/**
 * Most cases in one module batch. A batch's Terraform CPU grows a little faster than its
 * instances (plan and show of the devcontainer template, fitted: ~0.65 s + ~0.22 s per
 * instance + ~0.002 s per instance squared), and its memory with them: 44 cases took ~13.7 s
 * in one batch and ~12.4 s in two (alternating runs, ±1.5 s under load), at ~310 MB a run
 * instead of ~540 MB.
 */
export const MAX_BATCH_SIZE = 25;

/** `indices` cut into the fewest batches of at most MAX_BATCH_SIZE, of even sizes. */
function batchesOf(indices: readonly number[]): number[][] {
  const count = Math.ceil(indices.length / MAX_BATCH_SIZE);
  const size = Math.ceil(indices.length / count);
  return Array.from({ length: count }, (_, n) => indices.slice(n * size, (n + 1) * size));
}

/** One input of {@link BadInputPlanner.planMany}. */
export interface PlanCase {
  readonly metadata: DevcontainerMetadata;
  readonly inputs?: PlanInputs;
}

/** The build of a (nested) stopped-workspace state with its resolved tag replaced. */
function withBuildTag(state: TerraformState, tag: string): TerraformState {
  const resources = (state.resources as Record<string, any>[]).map((resource) =>
    resource.type === "devcontainerbuilder_build" && resource.mode === "managed"
      ? {
          ...resource,
          instances: (resource.instances as Record<string, any>[]).map((instance) => ({
            ...instance,
            attributes: { ...instance.attributes, resolved_tag: tag },
          })),
        }
      : resource,
  );
  return { ...state, resources };
}

// --- What a plan shows --------------------------------------------------------------------------

/** A visible forwarded-port app. */
export interface PortApp {
  readonly displayName: string;
  readonly url: string;
}

/** The started workspace as the plan shows it, reduced to what the cases check. */
export class PlannedWorkspace {
  /** Lines of the "devcontainer warnings" check message (the build log), without "- ". */
  readonly warnings: readonly string[];
  /** The "Dev Container variables" check message, or undefined when that check passed. */
  readonly variablesMessage: string | undefined;
  /** Terraform warnings other than failed checks (there should be none). */
  readonly otherDiagnostics: readonly string[];
  readonly pod: PodView;
  readonly ports: readonly PortApp[];
  /** Number of coder_app port slots (visible or hidden). */
  readonly portSlots: number;
  /** The "Resources (reserved / limit)" summary. */
  readonly resourcesSummary: string;
  /** Inputs of the three coder_scripts (the lines before the embedded script). */
  readonly scripts: readonly string[];
  /** The `folder` input of each IDE module instance planned (vscode_desktop, vscode_web). */
  readonly moduleFolders: Readonly<Record<string, unknown>>;
  /** The extension IDs handed to the VS Code extensions script, one per line of its input. */
  readonly vscodeExtensions: readonly string[] | undefined;

  constructor(readonly plan: PlanResult) {
    const failures = plan.checkFailures();
    const warningsMessage = failures.find((m) => m.startsWith(WARNINGS_HEADING));
    this.warnings = warningsMessage ? messageLines(warningsMessage) : [];
    const variablesPrefix = VARIABLES_MESSAGE.slice(0, VARIABLES_MESSAGE.indexOf("%s"));
    this.variablesMessage = failures.find((m) => m.startsWith(variablesPrefix));
    this.otherDiagnostics = plan.warnings
      .filter((d) => d.summary !== CHECK_FAILED_SUMMARY)
      .map((d) => `${d.summary}: ${d.detail}`);
    this.pod = podView(plan.resource("kubernetes_deployment_v1.main[0]"));
    const apps = plan.resources("coder_app").filter((r) => r.name === "forwarded_port");
    this.portSlots = apps.length;
    this.ports = apps
      .filter((a) => a.after.hidden !== true)
      .map((a) => ({ displayName: String(a.after.display_name), url: String(a.after.url) }));
    const metadata = asList(plan.resource("coder_agent.main").after.metadata);
    const resources = metadata.find((m) => m.key === "9_resources");
    this.resourcesSummary = unquoteEcho(String(resources?.script ?? ""));
    this.scripts = plan.resources("coder_script").map((s) => String(s.after.script));
    this.moduleFolders = Object.fromEntries(
      plan
        .resources("terraform_data")
        .filter((r) => IDE_MODULE_INPUTS.test(r.address))
        .map((r) => [
          r.address.split(/[.[]/)[1],
          (r.after.input as Record<string, unknown>).folder,
        ]),
    );
    this.vscodeExtensions = quotedAssignment(this.scripts, "DC_VSCODE_EXTENSIONS")
      ?.split("\n")
      .filter((id) => id !== "");
  }
}

/** The message's entries after the heading, each without its "- " (one may span lines). */
function messageLines(message: string): string[] {
  const body = message.slice(message.indexOf("\n") + 1);
  return body.startsWith("- ") ? body.slice(2).split("\n- ") : [];
}

/** The inputs recorded by the IDE modules' stand-ins (packages/terraform-harness/src/module-stubs). */
const IDE_MODULE_INPUTS = /^module\.vscode_(desktop|web)\[0\]\.terraform_data\.inputs$/;

/** The value of the single-quoted `NAME='…'` line in one of the scripts (undefined if none). */
function quotedAssignment(scripts: readonly string[], name: string): string | undefined {
  for (const script of scripts) {
    const match = new RegExp(`^${name}='((?:[^']|'\\\\'')*)'$`, "m").exec(script);
    if (match) return match[1].replace(/'\\''/g, "'");
  }
  return undefined;
}

/** `echo '<text>'` (with `'\''` escapes) → text. */
function unquoteEcho(script: string): string {
  const match = /^echo '([\s\S]*)'$/.exec(script);
  return match ? match[1].replace(/'\\''/g, "'") : script;
}

/** The workspace pod's settings the cases and the invariants look at. */
export interface PodView {
  readonly runAsUser: string;
  readonly runAsGroup: string;
  readonly fsGroup: string;
  readonly hostname: string | null;
  readonly shareProcessNamespace: boolean;
  readonly nodeSelector: Readonly<Record<string, string>>;
  readonly tolerations: readonly Readonly<Record<string, unknown>>[];
  readonly hostAliases: readonly { readonly ip: string; readonly hostnames: readonly string[] }[];
  /** The `dev` container's env, by name. */
  readonly env: Readonly<Record<string, string>>;
  /** seed-home's env, by name. */
  readonly seedEnv: Readonly<Record<string, string>>;
  readonly requests: Readonly<Record<string, string>>;
  readonly limits: Readonly<Record<string, string>>;
  readonly capabilities: readonly string[];
  readonly privileged: boolean;
  readonly seccompProfiles: readonly string[];
  /** `dev` container mounts: path → "<volume>:<subPath or ->" (":ro" when read-only). */
  readonly mounts: readonly {
    readonly path: string;
    readonly volume: string;
    readonly subPath: string | null;
    readonly readOnly: boolean;
  }[];
  /** Pod volumes: name → "pvc" | "emptyDir:<medium>:<size limit>". */
  readonly volumes: Readonly<Record<string, string>>;
}

function podView(deployment: PlannedResource): PodView {
  const spec = first(first(first(deployment.after.spec).template).spec);
  const container = asList(spec.container).find((c) => c.name === "dev") ?? {};
  const seed = asList(spec.init_container).find((c) => c.name === "seed-home") ?? {};
  const podSecurity = first(spec.security_context);
  const security = first(container.security_context);
  const resources = first(container.resources);
  const env = (c: Record<string, unknown>) =>
    Object.fromEntries(asList(c.env).map((e) => [String(e.name), String(e.value ?? "")]));
  return {
    runAsUser: String(podSecurity.run_as_user),
    runAsGroup: String(podSecurity.run_as_group),
    fsGroup: String(podSecurity.fs_group),
    hostname: typeof spec.hostname === "string" && spec.hostname !== "" ? spec.hostname : null,
    shareProcessNamespace: spec.share_process_namespace === true,
    nodeSelector: stringMap(spec.node_selector),
    tolerations: asList(spec.toleration),
    hostAliases: asList(spec.host_aliases).map((a) => ({
      ip: String(a.ip),
      hostnames: Array.isArray(a.hostnames) ? a.hostnames.map(String) : [],
    })),
    env: env(container),
    seedEnv: env(seed),
    requests: stringMap(resources.requests),
    limits: stringMap(resources.limits),
    capabilities: (asList(security.capabilities)[0]?.add as string[] | undefined) ?? [],
    privileged: security.privileged === true,
    seccompProfiles: asList(security.seccomp_profile).map((p) => String(p.type)),
    mounts: asList(container.volume_mount).map((m) => ({
      path: String(m.mount_path),
      volume: String(m.name),
      subPath: typeof m.sub_path === "string" && m.sub_path !== "" ? m.sub_path : null,
      readOnly: m.read_only === true,
    })),
    volumes: Object.fromEntries(
      asList(spec.volume).map((v) => {
        const emptyDir = asList(v.empty_dir)[0];
        const kind = emptyDir
          ? `emptyDir:${String(emptyDir.medium)}:${String(emptyDir.size_limit ?? "")}`
          : asList(v.persistent_volume_claim).length > 0
            ? "pvc"
            : "other";
        return [String(v.name), kind];
      }),
    ),
  };
}

function asList(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter((v): v is Record<string, unknown> => typeof v === "object" && v !== null)
    : [];
}

function first(value: unknown): Record<string, unknown> {
  return asList(value)[0] ?? {};
}

function stringMap(value: unknown): Record<string, string> {
  if (typeof value !== "object" || value === null) return {};
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}

// --- Sane fallbacks: what every planned workspace must satisfy ------------------------------

/** Template variables that change what is sane (the rest keep their defaults). */
export interface SanityContext {
  /** var.allow_privileged. @default false */
  readonly allowPrivileged?: boolean;
  /** var.max_forwarded_ports. @default 10 */
  readonly maxForwardedPorts?: number;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const ABSOLUTE_PATH = /^\/\S*$/;
const ID = /^(0|[1-9][0-9]{0,9})$/;
const MAX_ID = 2147483647;
const FOLDER_RULE = new RegExp(WORKSPACE_FOLDER_PATTERN, "u");
const POD_PATH_RULE = new RegExp(POD_PATH_PATTERN, "u");
const USER_NAME_RULE = new RegExp(USER_NAME_PATTERN, "u");
const EXTENSION_RULE = new RegExp(EXTENSION_ID_PATTERN, "u");

/**
 * Why the planned workspace would not run (empty when it would): values Kubernetes or Coder
 * reject, or settings the template must never take from a repository.
 */
export function saneWorkspaceProblems(
  workspace: PlannedWorkspace,
  context: SanityContext = {},
): string[] {
  const problems: string[] = [];
  const problem = (text: string) => problems.push(text);
  const pod = workspace.pod;

  for (const diagnostic of workspace.otherDiagnostics) problem(`unexpected warning: ${diagnostic}`);
  for (const line of workspace.warnings) {
    if (line.trim() === "") problem("an empty warning line");
  }

  for (const [field, id] of Object.entries({
    run_as_user: pod.runAsUser,
    run_as_group: pod.runAsGroup,
    fs_group: pod.fsGroup,
  })) {
    if (!ID.test(id) || Number(id) > MAX_ID)
      problem(`${field} ${JSON.stringify(id)} is not a uid/gid`);
  }
  if (pod.fsGroup !== pod.runAsGroup) problem("fs_group differs from run_as_group");

  for (const [section, map] of Object.entries({ requests: pod.requests, limits: pod.limits })) {
    for (const name of ["cpu", "memory"]) {
      if (!(name in map)) problem(`${section} has no ${name}`);
    }
    for (const [name, quantity] of Object.entries(map)) {
      if (!isValidResourceName(name))
        problem(`${section}[${JSON.stringify(name)}] is not a resource name`);
      if (quantityValue(quantity) === undefined) {
        problem(`${section}[${name}] = ${JSON.stringify(quantity)} is not a quantity`);
      }
    }
  }
  for (const name of Object.keys(pod.requests)) {
    const request = quantityValue(pod.requests[name]);
    const limit = name in pod.limits ? quantityValue(pod.limits[name]) : undefined;
    if (request !== undefined && limit !== undefined && limit < request) {
      problem(`limits[${name}] ${pod.limits[name]} is below the request ${pod.requests[name]}`);
    }
  }

  if (pod.nodeSelector[ARCH_NODE_LABEL] !== "amd64") {
    problem(
      `node selector ${ARCH_NODE_LABEL} is ${JSON.stringify(pod.nodeSelector[ARCH_NODE_LABEL])}`,
    );
  }
  for (const toleration of pod.tolerations) {
    const reason = tolerationProblem(toleration);
    if (reason) problem(`toleration ${JSON.stringify(toleration)}: ${reason}`);
  }
  if (pod.hostname !== null && !DNS_LABEL.test(pod.hostname)) {
    problem(`hostname ${JSON.stringify(pod.hostname)} is not a DNS label`);
  }
  for (const alias of pod.hostAliases) {
    if (isIP(alias.ip) === 0) {
      problem(`host alias ip ${JSON.stringify(alias.ip)} is not an IP`);
    }
    if (alias.hostnames.length === 0) problem(`host alias ${alias.ip} has no host names`);
    for (const name of alias.hostnames) {
      if (!DNS_SUBDOMAIN.test(name))
        problem(`host alias name ${JSON.stringify(name)} is not a DNS name`);
    }
  }

  const allowed = new Set<string>(BASELINE_CAPABILITIES);
  for (const capability of pod.capabilities) {
    if (!/^[A-Z0-9_]+$/.test(capability)) problem(`capability ${JSON.stringify(capability)}`);
    if (!context.allowPrivileged && !allowed.has(capability)) {
      problem(`capability ${capability} added while allow_privileged is off`);
    }
  }
  if (!context.allowPrivileged && (pod.privileged || pod.seccompProfiles.length > 0)) {
    problem("privileged or seccomp Unconfined while allow_privileged is off");
  }

  const home = pod.env.DC_HOME;
  const folder = pod.env.DC_WORKSPACE_FOLDER;
  if (!ABSOLUTE_PATH.test(home ?? "") || home === "/") problem(`home ${JSON.stringify(home)}`);
  if (!ABSOLUTE_PATH.test(folder ?? "") || folder === "/")
    problem(`workspace folder ${JSON.stringify(folder)}`);
  if (!pod.env.DC_REMOTE_USER || /[\s/:]/.test(pod.env.DC_REMOTE_USER)) {
    problem(`remote user ${JSON.stringify(pod.env.DC_REMOTE_USER)}`);
  }
  if (pod.seedEnv.HOME_DIR !== home) problem("seed-home's HOME_DIR differs from DC_HOME");

  // Values from the repository (docs/security.md): each sink gets only what its rule allows.
  if (!FOLDER_RULE.test(folder ?? "")) problem(`workspace folder ${JSON.stringify(folder)}`);
  if (!POD_PATH_RULE.test(home ?? "")) problem(`home ${JSON.stringify(home)}`);
  if (pod.env.DC_REMOTE_USER !== "root" && !USER_NAME_RULE.test(pod.env.DC_REMOTE_USER ?? "")) {
    problem(`remote user ${JSON.stringify(pod.env.DC_REMOTE_USER)}`);
  }
  for (const module of ["vscode_desktop", "vscode_web"]) {
    const input = workspace.moduleFolders[module];
    if (input === undefined) continue;
    if (input !== folder) problem(`module ${module} folder ${JSON.stringify(input)}`);
  }
  if (workspace.moduleFolders.vscode_desktop === undefined) problem("no vscode_desktop module");
  if (workspace.vscodeExtensions === undefined) problem("no DC_VSCODE_EXTENSIONS input");
  for (const id of workspace.vscodeExtensions ?? []) {
    if (!EXTENSION_RULE.test(id)) problem(`extension ${JSON.stringify(id)} reaches the script`);
  }
  for (const port of workspace.ports) {
    if (Buffer.byteLength(port.displayName, "utf8") > DISPLAY_NAME_MAX_BYTES) {
      problem(`port app display_name ${JSON.stringify(port.displayName)} is over 64 bytes`);
    }
  }
  for (const mount of pod.mounts) {
    if (!POD_PATH_RULE.test(mount.path)) problem(`mount path ${JSON.stringify(mount.path)}`);
  }

  const paths = new Set<string>();
  for (const mount of pod.mounts) {
    if (!ABSOLUTE_PATH.test(mount.path) || /(^|\/)\.\.?(\/|$)/.test(mount.path)) {
      problem(`mount path ${JSON.stringify(mount.path)}`);
    }
    const normalized = mount.path.length > 1 ? mount.path.replace(/\/+$/, "") : mount.path;
    if (paths.has(normalized)) problem(`two mounts at ${mount.path}`);
    paths.add(normalized);
    if (!(mount.volume in pod.volumes))
      problem(`mount ${mount.path} uses a missing volume ${mount.volume}`);
    if (
      mount.subPath !== null &&
      (mount.subPath.startsWith("/") || mount.subPath.split("/").includes(".."))
    ) {
      problem(`sub_path ${JSON.stringify(mount.subPath)}`);
    }
  }
  for (const required of [home, "/workspaces", "/dev/shm"]) {
    if (!paths.has(required)) problem(`nothing mounted at ${required}`);
  }
  for (const [name, kind] of Object.entries(pod.volumes)) {
    const size = /^emptyDir:[^:]*:(.*)$/.exec(kind)?.[1];
    if (size && quantityValue(size) === undefined)
      problem(`volume ${name} size ${JSON.stringify(size)}`);
  }
  for (const dir of `${pod.seedEnv.VOLUME_DIRS} ${pod.seedEnv.MOUNT_POINT_DIRS}`.split(" ")) {
    if (dir.startsWith("/") || dir.split("/").includes(".."))
      problem(`seed-home dir ${JSON.stringify(dir)}`);
  }

  const slots = context.maxForwardedPorts ?? 10;
  if (workspace.portSlots !== slots) problem(`${workspace.portSlots} port slots, not ${slots}`);
  for (const port of workspace.ports) {
    const match = /^https?:\/\/localhost:([0-9]+)$/.exec(port.url);
    const number = match ? Number(match[1]) : NaN;
    if (!(number >= 1 && number <= 65535)) problem(`port app url ${JSON.stringify(port.url)}`);
    if (port.displayName.trim() === "") problem(`port app ${port.url} has no name`);
  }

  if (
    !/ · from (customizations\.kubernetes|hostRequirements|the parameters)/.test(
      workspace.resourcesSummary,
    )
  ) {
    problem(`resources summary ${JSON.stringify(workspace.resourcesSummary)}`);
  }
  return problems;
}

/** Kubernetes' validation of one toleration (undefined when valid). */
function tolerationProblem(t: Readonly<Record<string, unknown>>): string | undefined {
  const operator = t.operator ?? "Equal";
  const effect = t.effect ?? "";
  if (operator !== "Equal" && operator !== "Exists") return "operator";
  if (!["", "NoSchedule", "PreferNoSchedule", "NoExecute"].includes(String(effect)))
    return "effect";
  if (operator !== "Exists" && !t.key) return "key";
  if (operator === "Exists" && t.value) return "value with Exists";
  if (t.toleration_seconds !== null && t.toleration_seconds !== undefined) {
    if (effect !== "NoExecute") return "seconds without NoExecute";
    if (!/^-?[0-9]{1,18}$/.test(String(t.toleration_seconds))) return "seconds (an int64)";
  }
  return undefined;
}

// --- The matrix -----------------------------------------------------------------------------

/** What a case expects besides the generic sanity checks. */
export interface ExpectedWorkspace {
  /** Pod settings (toMatchObject: arrays must match whole, objects in part). */
  readonly pod?: DeepPartial<PodView>;
  /** The visible forwarded-port apps, in order. */
  readonly ports?: readonly PortApp[];
  readonly resourcesSummary?: string | RegExp;
  /** Names the "Dev Container variables" check reports missing; [] when it passes. @default [] */
  readonly missingVariables?: readonly string[];
  /** Lines that some coder_script's inputs contain, e.g. `DC_VSCODE_EXTENSIONS=''`. */
  readonly scriptInputs?: readonly string[];
}

type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { readonly [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** One malformed data-source fixture and what the workspace must make of it. */
export interface BadInputCase {
  readonly name: string;
  /** Attributes that differ from {@link VALID_METADATA}; null means the provider returns null. */
  readonly metadata: DevcontainerMetadata;
  readonly inputs?: PlanInputs;
  /**
   * The build-log warnings: each entry (a substring or a pattern) matches its own line, and
   * there are no other lines. [] means the warnings check passes.
   */
  readonly warnings: readonly (string | RegExp)[];
  readonly expected?: ExpectedWorkspace;
  /**
   * A bug this case shows in a file its author may not change: the case's tests are expected
   * to fail (jest `it.failing`) until the owner fixes it, and then must be unmarked.
   */
  readonly knownBug?: string;
}

const VALID_RUNTIME = VALID_METADATA.runtime as Readonly<Record<string, unknown>>;

/** The runtime object with some fields changed. */
function runtime(changes: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return { ...VALID_RUNTIME, ...changes };
}

/** configuration_json whose customizations.kubernetes lists these contributor entries. */
function kubernetes(...entries: readonly unknown[]): string {
  return JSON.stringify({ customizations: { kubernetes: entries } });
}

/** host_requirements with some fields set. */
function hostRequirements(values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return { cpus: null, memory_bytes: null, storage_bytes: null, gpu_json: null, ...values };
}

/** The mounts every workspace of {@link VALID_METADATA} has (home, /workspaces, folder, shm). */
const STANDARD_MOUNTS = (home: string) => [
  { path: home, volume: "data", subPath: "home", readOnly: false },
  { path: "/workspaces", volume: "data", subPath: "workspaces", readOnly: false },
  {
    path: "/mnt/.devcontainer-unused-workspace-folder",
    volume: "data",
    subPath: "workspace-folder",
    readOnly: false,
  },
];
const SHM_MOUNT = { path: "/dev/shm", volume: "dshm", subPath: null, readOnly: false };

const DEFAULT_RESOURCES = {
  requests: { cpu: "250m", memory: "512Mi" },
  limits: { cpu: "2", memory: "2Gi" },
};
const DEFAULT_SUMMARY = "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · from the parameters";

const UID_FALLBACK = (user: string) => `The image records no uid/gid for the remote user "${user}"`;
const NOT_A_JSON_OBJECT = "configuration is not a JSON object";

/** Every computed attribute of the data source. */
const COMPUTED_ATTRIBUTES = Object.keys(VALID_METADATA);

export const BAD_INPUT_CASES: readonly BadInputCase[] = [
  // --- nulls: try() catches errors, not nulls ------------------------------------------------
  {
    name: "every attribute null (an old or sparse service)",
    metadata: Object.fromEntries(COMPUTED_ATTRIBUTES.map((name) => [name, null])),
    warnings: [UID_FALLBACK("root")],
    expected: {
      pod: {
        runAsUser: "1000",
        runAsGroup: "1000",
        env: {
          DC_REMOTE_USER: "root",
          DC_HOME: "/root",
          DC_WORKSPACE_FOLDER: "/workspaces/app",
          DC_CONTAINER_ENV: "",
          DC_REMOTE_ENV: "",
        },
        mounts: [...STANDARD_MOUNTS("/root"), SHM_MOUNT],
        ...DEFAULT_RESOURCES,
        capabilities: [],
        hostAliases: [],
      },
      ports: [],
      resourcesSummary: DEFAULT_SUMMARY,
      scriptInputs: [
        "DC_HOOK_POST_CREATE_COMMAND=''",
        "DC_VSCODE_EXTENSIONS=''",
        "DC_VSCODE_SETTINGS_B64='e30='",
      ],
    },
  },
  {
    name: "null forward_ports",
    metadata: { forward_ports: null },
    warnings: [],
    expected: { ports: [] },
  },
  {
    name: "null mounts",
    metadata: { mounts: null },
    warnings: [],
    expected: { pod: { mounts: [...STANDARD_MOUNTS("/home/vscode"), SHM_MOUNT] } },
  },
  {
    name: "null variables and null warnings",
    metadata: { variables: null, warnings: null },
    warnings: [],
    expected: { missingVariables: [] },
  },
  {
    name: "null env_scripts and lifecycle_scripts",
    metadata: { env_scripts: null, lifecycle_scripts: null },
    warnings: [],
    expected: {
      pod: { env: { DC_CONTAINER_ENV: "", DC_REMOTE_ENV: "" } },
      scriptInputs: ["DC_HOOK_POST_CREATE_COMMAND=''", "DC_HOOK_POST_ATTACH_COMMAND=''"],
    },
  },
  {
    name: "null extensions and settings_json",
    metadata: { extensions: null, settings_json: null },
    warnings: [],
    expected: { scriptInputs: ["DC_VSCODE_EXTENSIONS=''", "DC_VSCODE_SETTINGS_B64='e30='"] },
  },
  {
    name: "null runtime (an image built before 0.3.0)",
    metadata: { runtime: null },
    warnings: [UID_FALLBACK("vscode")],
    expected: {
      pod: {
        runAsUser: "1000",
        env: { DC_REMOTE_USER: "vscode", DC_HOME: "/home/vscode" },
        capabilities: [],
        hostAliases: [],
        hostname: null,
        volumes: { dshm: "emptyDir:Memory:64Mi" },
      },
    },
  },
  {
    name: "runtime with every field null (null cap_add and host_aliases)",
    metadata: {
      runtime: Object.fromEntries(Object.keys(VALID_RUNTIME).map((name) => [name, null])),
    },
    warnings: [UID_FALLBACK("vscode")],
    expected: {
      pod: { capabilities: [], hostAliases: [], privileged: false, shareProcessNamespace: false },
    },
  },
  {
    name: "null host_requirements and configuration_json",
    metadata: { host_requirements: null, configuration_json: null },
    warnings: [],
    expected: { pod: DEFAULT_RESOURCES, resourcesSummary: DEFAULT_SUMMARY },
  },

  // --- empty strings and zeros ----------------------------------------------------------------
  {
    name: "empty strings and zeros everywhere",
    metadata: {
      remote_user: "",
      container_user: "",
      workspace_folder: "",
      configuration_json: "",
      settings_json: "",
      metadata_json: "",
      extensions: [""],
      warnings: [""],
      lifecycle_scripts: { postCreateCommand: "", postStartCommand: "" },
      env_scripts: { containerEnv: "", remoteEnv: "" },
      forward_ports: [{ port: 3000, label: "", protocol: "", on_auto_forward: "" }],
      mounts: [{ kind: "", source: "", target: "", read_only: false }],
      runtime: runtime({ remote_user_home: "", hostname: "", shm_size_bytes: 0 }),
      host_requirements: hostRequirements({
        cpus: 0,
        memory_bytes: 0,
        storage_bytes: 0,
        gpu_json: "",
      }),
    },
    warnings: [
      'mounts[0]: kind "" is not supported',
      "runtime.shm_size_bytes 0",
      "hostRequirements.cpus 0 is not a positive number",
      "hostRequirements.memory 0 bytes is not a positive size",
      "hostRequirements.storage 0 bytes is not a positive size",
    ],
    expected: {
      pod: {
        env: {
          DC_REMOTE_USER: "root",
          DC_HOME: "/root",
          DC_WORKSPACE_FOLDER: "/workspaces/app",
          DC_CONTAINER_ENV: "",
        },
        ...DEFAULT_RESOURCES,
        volumes: { dshm: "emptyDir:Memory:64Mi" },
      },
      ports: [{ displayName: "Port 3000", url: "http://localhost:3000" }],
      resourcesSummary: DEFAULT_SUMMARY,
      scriptInputs: [
        "DC_VSCODE_EXTENSIONS=''",
        "DC_VSCODE_SETTINGS_B64='e30='",
        "DC_HOOK_POST_CREATE_COMMAND=''",
      ],
    },
  },

  // --- configuration_json ----------------------------------------------------------------------
  {
    name: "configuration_json that is not JSON",
    metadata: { configuration_json: '{"customizations": {"kubernetes": [' },
    warnings: [NOT_A_JSON_OBJECT],
    expected: { pod: DEFAULT_RESOURCES },
  },
  {
    name: "configuration_json that is a JSON list",
    metadata: { configuration_json: '[{"customizations": {"kubernetes": [{"storage": "50Gi"}]}}]' },
    warnings: [NOT_A_JSON_OBJECT],
    expected: { resourcesSummary: DEFAULT_SUMMARY },
  },
  {
    name: "configuration_json that is a JSON string",
    metadata: { configuration_json: '"{\\"customizations\\": {}}"' },
    warnings: [NOT_A_JSON_OBJECT],
    expected: { resourcesSummary: DEFAULT_SUMMARY },
  },
  {
    name: "configuration_json that is JSON null",
    metadata: { configuration_json: "null" },
    warnings: [],
    expected: { resourcesSummary: DEFAULT_SUMMARY },
  },
  {
    name: "customizations and customizations.kubernetes of the wrong JSON types",
    metadata: {
      configuration_json: JSON.stringify({
        customizations: { kubernetes: { resources: { requests: { cpu: "4" } } }, vscode: "x" },
      }),
    },
    warnings: [],
    expected: { pod: DEFAULT_RESOURCES, resourcesSummary: DEFAULT_SUMMARY },
  },
  {
    name: "customizations.kubernetes entries of every JSON type",
    metadata: {
      configuration_json: kubernetes(
        null,
        1,
        "storage",
        true,
        [],
        {},
        { resources: "huge" },
        { resources: { requests: ["cpu", "8"], limits: 4 } },
        { nodeSelector: "gpu", tolerations: { key: "x" } },
        { storage: { size: "50Gi" } },
      ),
    },
    // A null entry means unset; every other piece of the wrong type is named.
    warnings: [
      "customizations.kubernetes: 1 is not an object, ignored",
      'customizations.kubernetes: "storage" is not an object, ignored',
      "customizations.kubernetes: true is not an object, ignored",
      "customizations.kubernetes: [] is not an object, ignored",
      'customizations.kubernetes resources: "huge" is not an object, ignored',
      'customizations.kubernetes resources.requests: ["cpu","8"] is not an object, ignored',
      "customizations.kubernetes resources.limits: 4 is not an object, ignored",
      'customizations.kubernetes nodeSelector: "gpu" is not an object, ignored',
      'customizations.kubernetes tolerations: {"key":"x"} is not a list, ignored',
      'customizations.kubernetes storage = {"size":"50Gi"}: invalid quantity, ignored',
    ],
    expected: { pod: { ...DEFAULT_RESOURCES, tolerations: [] }, resourcesSummary: DEFAULT_SUMMARY },
  },
  {
    name: "requests and limits of the wrong JSON types",
    metadata: {
      configuration_json: kubernetes({
        resources: {
          requests: {
            cpu: true,
            memory: { gi: 4 },
            "ephemeral-storage": null,
            "nvidia.com/gpu": [1],
          },
          limits: { cpu: null, memory: false },
        },
      }),
    },
    warnings: [
      'resources.requests["cpu"] = true: invalid quantity, ignored',
      'resources.requests["memory"] = {"gi":4}: invalid quantity, ignored',
      'resources.requests["ephemeral-storage"] = null: invalid quantity, ignored',
      'resources.requests["nvidia.com/gpu"] = [1]: invalid quantity, ignored',
      'resources.limits["cpu"] = null: invalid quantity, ignored',
      'resources.limits["memory"] = false: invalid quantity, ignored',
    ],
    expected: { pod: DEFAULT_RESOURCES, resourcesSummary: DEFAULT_SUMMARY },
  },
  {
    name: "negative, exponent and astronomically large quantities",
    metadata: {
      configuration_json: kubernetes({
        resources: {
          requests: { cpu: "-1", memory: "1e9", "ephemeral-storage": -5 },
          limits: { cpu: -2, memory: "1e300" },
        },
      }),
    },
    warnings: [
      'resources.requests["cpu"] = "-1": invalid quantity',
      'resources.requests["memory"] = "1e9": invalid quantity',
      'resources.requests["ephemeral-storage"] = -5: invalid quantity',
      'resources.limits["cpu"] = -2: invalid quantity',
      'resources.limits["memory"] = "1e300": invalid quantity',
    ],
    expected: { pod: DEFAULT_RESOURCES },
  },
  {
    name: "huge but valid requests are capped",
    metadata: {
      configuration_json: kubernetes({
        resources: { requests: { cpu: 1e30, memory: "999999Ei" } },
      }),
    },
    warnings: [
      `resources.requests["cpu"] = "1${"0".repeat(30)}" exceeds max_cpu 8`,
      'resources.requests["memory"] = "999999Ei" exceeds max_memory 32 GiB',
    ],
    expected: {
      pod: { requests: { cpu: "8", memory: "32Gi" }, limits: { cpu: "8", memory: "32Gi" } },
    },
  },
  {
    name: "resource names that are not resource names",
    metadata: {
      configuration_json: kubernetes({
        resources: { requests: { "": "1", "Foo Bar": "1", "gpu/": "1", "ünïcode.io/gpu": "1" } },
      }),
    },
    warnings: [
      'resources.requests[""] = "1": invalid resource name, ignored',
      'resources.requests["Foo Bar"] = "1": invalid resource name, ignored',
      'resources.requests["gpu/"] = "1": invalid resource name, ignored',
      /resources\.requests\["(ünïcode|\\u00fcn\\u00efcode)\.io\/gpu"\] = "1": invalid resource name, ignored/,
    ],
    expected: { pod: DEFAULT_RESOURCES },
  },
  {
    name: "limits below the requests",
    metadata: {
      configuration_json: kubernetes({
        resources: { requests: { cpu: "4", memory: "8Gi" }, limits: { cpu: "1", memory: "1Gi" } },
      }),
    },
    warnings: [
      'resources.limits["cpu"] = "1" is below the request 4',
      'resources.limits["memory"] = "1Gi" is below the request 8Gi',
    ],
    expected: {
      pod: { requests: { cpu: "4", memory: "8Gi" }, limits: { cpu: "4", memory: "8Gi" } },
    },
  },
  {
    name: "storage of the wrong types",
    metadata: {
      configuration_json: kubernetes({ storage: true }, { storage: "" }, { storage: "-5Gi" }),
    },
    warnings: [
      "customizations.kubernetes storage = true: invalid quantity, ignored",
      // storage "" means unset: no warning.
      'customizations.kubernetes storage = "-5Gi": invalid quantity, ignored',
    ],
    expected: { resourcesSummary: DEFAULT_SUMMARY },
  },
  {
    name: "nodeSelector and tolerations while node placement is off",
    metadata: {
      configuration_json: kubernetes({
        nodeSelector: { "kubernetes.io/arch": "arm64", pool: null },
        tolerations: [{ key: "gpu", operator: "Exists" }],
      }),
    },
    warnings: [
      "customizations.kubernetes nodeSelector and tolerations ignored: the template variable allow_node_placement is off",
    ],
    expected: { pod: { nodeSelector: { "kubernetes.io/arch": "amd64" }, tolerations: [] } },
  },
  {
    // Each would pass the provider and fail the API server (422), or fail the provider.
    name: "resources, tolerations and node labels the API server would refuse",
    metadata: {
      configuration_json: kubernetes({
        resources: {
          requests: { "example.com/foo": "0.5" },
          limits: { "nvidia.com/gpu": "0.5", "hugepages-2Mi": "3Mi", "example..com/x": "1" },
        },
        nodeSelector: { pool: 1e100, "bad key": "x" },
        tolerations: [
          { key: "gpu", operator: "Exists", effect: "" },
          { key: "bad key", operator: "Exists" },
          { key: "a", value: 1e100 },
        ],
      }),
    },
    inputs: { variables: { allow_node_placement: true } },
    warnings: [
      'resources.requests["example.com/foo"] = "0.5": invalid quantity (an extended resource must be a whole number)',
      'resources.limits["nvidia.com/gpu"] = "0.5": invalid quantity (an extended resource must be a whole number)',
      "hugepages must be a positive multiple of the page size",
      'resources.limits["example..com/x"] = "1": invalid resource name, ignored',
      'nodeSelector["pool"]',
      'nodeSelector["bad key"] = "x" is not a valid node label, ignored',
      'tolerations: {"key":"bad key","operator":"Exists"} is not a valid toleration',
      'tolerations: {"key":"a","value":"1',
    ],
    expected: {
      pod: {
        nodeSelector: { "kubernetes.io/arch": "amd64" },
        tolerations: [
          { key: "gpu", operator: "Exists", value: null, effect: null, toleration_seconds: null },
        ],
      },
    },
  },
  {
    name: "malformed tolerations and a foreign arch with node placement on",
    metadata: {
      configuration_json: kubernetes(
        { nodeSelector: { "kubernetes.io/arch": "arm64", pool: 7 } },
        {
          tolerations: [
            null,
            "gpu",
            { operator: "Bogus", key: "a" },
            { key: "b", effect: "NoExecute", tolerationSeconds: "soon" },
            { key: "c", operator: "Exists", value: "v" },
            { key: "d", effect: "Sometimes" },
            { key: "e", effect: "NoExecute", tolerationSeconds: 1e30 },
            { key: "good", operator: "Equal", value: "yes", effect: "NoSchedule" },
          ],
        },
      ),
    },
    inputs: { variables: { allow_node_placement: true } },
    warnings: [
      "customizations.kubernetes tolerations: null is not a valid toleration, ignored",
      'tolerations: "gpu" is not a valid toleration',
      'tolerations: {"key":"a","operator":"Bogus"} is not a valid toleration',
      'tolerations: {"effect":"NoExecute","key":"b","tolerationSeconds":"soon"} is not a valid toleration',
      'tolerations: {"key":"c","operator":"Exists","value":"v"} is not a valid toleration',
      'tolerations: {"effect":"Sometimes","key":"d"} is not a valid toleration',
      `tolerations: {"effect":"NoExecute","key":"e","tolerationSeconds":"1${"0".repeat(30)}"} is not a valid toleration`,
      'nodeSelector["kubernetes.io/arch"] = "arm64" ignored: the template sets "amd64"',
    ],
    expected: {
      pod: {
        nodeSelector: { "kubernetes.io/arch": "amd64", pool: "7" },
        tolerations: [
          {
            key: "good",
            operator: "Equal",
            value: "yes",
            effect: "NoSchedule",
            toleration_seconds: null,
          },
        ],
      },
    },
  },

  // --- host_requirements -----------------------------------------------------------------------
  {
    name: "negative host requirements",
    metadata: {
      host_requirements: hostRequirements({
        cpus: -1,
        memory_bytes: -5,
        storage_bytes: -1073741824,
      }),
    },
    warnings: [
      "hostRequirements.cpus -1 is not a positive number; it is ignored",
      "hostRequirements.memory -5 bytes is not a positive size; it is ignored",
      "hostRequirements.storage -1073741824 bytes is not a positive size; it is ignored",
    ],
    expected: { pod: DEFAULT_RESOURCES, resourcesSummary: DEFAULT_SUMMARY },
  },
  {
    name: "huge host requirements are capped",
    metadata: {
      host_requirements: hostRequirements({ cpus: 1e6, memory_bytes: 1e30 }),
    },
    warnings: [
      "hostRequirements.cpus 1000000 exceeds max_cpu 8",
      /hostRequirements\.memory .* exceeds max_memory 32 GiB/,
    ],
    expected: {
      pod: {
        requests: { cpu: "8", memory: "32Gi" },
        limits: { cpu: "8", memory: "32Gi" },
      },
    },
  },
  {
    name: "gpu_json that is not JSON or not a GPU request",
    metadata: { host_requirements: hostRequirements({ gpu_json: "{cores: 2" }) },
    warnings: ['hostRequirements.gpu "{cores: 2" is not true, false, "optional" or an object'],
    expected: { pod: DEFAULT_RESOURCES, resourcesSummary: DEFAULT_SUMMARY },
  },
  {
    name: "gpu_json of other JSON types",
    metadata: { host_requirements: hostRequirements({ gpu_json: "[1,2]" }) },
    warnings: ["hostRequirements.gpu [1,2] is not true, false"],
    expected: { pod: DEFAULT_RESOURCES },
  },

  // --- forwardPorts ----------------------------------------------------------------------------
  {
    name: "a port without a number, ports without labels, odd protocols and a port twice",
    metadata: {
      forward_ports: [
        { port: null, label: "no number", protocol: "http", on_auto_forward: null },
        { port: 8443, label: null, protocol: "https", on_auto_forward: "silent" },
        { port: 9000, label: "Säker 🔒 'quoted'", protocol: "HTTPS", on_auto_forward: null },
        { port: 3000, label: "", protocol: "tcp", on_auto_forward: "" },
        // 8443 and "8443" are two entries to the Dev Containers CLI: one app is enough.
        { port: 8443, label: "again", protocol: "http", on_auto_forward: null },
      ],
    },
    warnings: [
      /^forwardPorts\[0\] port = null: not a TCP port number/,
      "forwardPorts lists port 8443 more than once; it gets one app.",
    ],
    expected: {
      ports: [
        { displayName: "Port 8443", url: "https://localhost:8443" },
        { displayName: "Säker 🔒 'quoted'", url: "http://localhost:9000" },
        { displayName: "Port 3000", url: "http://localhost:3000" },
      ],
    },
  },
  {
    name: "impossible port numbers and a blank label",
    metadata: {
      forward_ports: [
        { port: 0, label: "zero", protocol: null, on_auto_forward: null },
        { port: -1, label: "negative", protocol: null, on_auto_forward: null },
        { port: 70000, label: "too big", protocol: null, on_auto_forward: null },
        { port: 8080.5, label: "fraction", protocol: null, on_auto_forward: null },
        { port: 4000, label: "   ", protocol: null, on_auto_forward: null },
      ],
    },
    warnings: [
      /forwardPorts\[0\].* 0\b/,
      /forwardPorts\[1\].*-1/,
      /forwardPorts\[2\].*70000/,
      /forwardPorts\[3\].*8080\.5/,
    ],
    expected: { ports: [{ displayName: "Port 4000", url: "http://localhost:4000" }] },
  },
  {
    name: "hundreds of forwarded ports",
    metadata: {
      forward_ports: Array.from({ length: 300 }, (_, i) => ({
        port: 3000 + i,
        label: null,
        protocol: null,
        on_auto_forward: null,
      })),
    },
    // The first ten take the template's port apps; the line names the next ten and counts the rest.
    warnings: [
      "forwardPorts has 300 ports and the template 10 port apps (its variable max_forwarded_ports): 3010, 3011, 3012, 3013, 3014, 3015, 3016, 3017, 3018, 3019 and 280 more get no app.",
    ],
    expected: {
      ports: Array.from({ length: 10 }, (_, i) => ({
        displayName: `Port ${3000 + i}`,
        url: `http://localhost:${3000 + i}`,
      })),
    },
  },

  // --- mounts ----------------------------------------------------------------------------------
  {
    name: "duplicate mounts and mounts on reserved paths",
    metadata: {
      mounts: [
        { kind: "volume", source: "cache", target: "/cache", read_only: null },
        { kind: "volume", source: "other", target: "/cache/", read_only: true },
        { kind: "tmpfs", source: null, target: "/workspaces", read_only: null },
        { kind: "volume", source: "home", target: "/home/vscode", read_only: null },
        { kind: "tmpfs", source: null, target: "/dev/shm/", read_only: null },
        { kind: "volume", source: "cache", target: "/cache", read_only: null },
      ],
    },
    warnings: [
      "The volume mount at /cache is not mounted: that path is already a mount point (an earlier mount in mounts).",
      "The tmpfs mount at /workspaces is not mounted: that path is already a mount point (/workspaces).",
      "The volume mount at /home/vscode is not mounted: that path is already a mount point (the home directory).",
      "The tmpfs mount at /dev/shm is not mounted: that path is already a mount point (/dev/shm).",
      "The volume mount at /cache is not mounted: that path is already a mount point (an earlier mount in mounts).",
    ],
    expected: {
      pod: {
        mounts: [
          ...STANDARD_MOUNTS("/home/vscode"),
          { path: "/cache", volume: "data", subPath: "volumes/cache", readOnly: false },
          SHM_MOUNT,
        ],
        seedEnv: { VOLUME_DIRS: "volumes/cache" },
      },
    },
  },
  {
    name: "mounts with bad kinds, targets and sources",
    metadata: {
      mounts: [
        {
          kind: "bind",
          source: "/var/run/docker.sock",
          target: "/var/run/docker.sock",
          read_only: null,
        },
        { kind: null, source: null, target: "/x", read_only: null },
        { kind: "volume", source: "ok", target: null, read_only: null },
        { kind: "volume", source: "ok", target: "relative/path", read_only: null },
        { kind: "volume", source: "../etc", target: "/etc-copy", read_only: null },
        { kind: "tmpfs", source: null, target: "/with space", read_only: null },
        { kind: "tmpfs", source: null, target: "/x/../y", read_only: null },
        { kind: "tmpfs", source: null, target: "/", read_only: null },
        { kind: "tmpfs", source: null, target: "/données/ünï", read_only: true },
        { kind: "tmpfs", source: null, target: "/rocket/🚀", read_only: null },
        { kind: "tmpfs", source: null, target: "/cache$(id)", read_only: null },
      ],
    },
    warnings: [
      'mounts[0]: kind "bind" is not supported',
      "mounts[1]: kind null is not supported",
      "mounts[2].target null is not an absolute path",
      'mounts[3].target "relative/path" is not an absolute path',
      'mounts[4].source "../etc" is not a volume name',
      'mounts[5].target "/with space" is not an absolute path',
      'mounts[6].target "/x/../y" is not an absolute path',
      /^The tmpfs mount at \/ is not mounted|mounts\[7\]\.target "\/"/,
      'mounts[9].target "/rocket/🚀" is not an absolute path',
      'mounts[10].target "/cache$(id)" is not an absolute path',
    ],
    expected: {
      pod: {
        mounts: [
          ...STANDARD_MOUNTS("/home/vscode"),
          { path: "/données/ünï", volume: "tmpfs-8", subPath: null, readOnly: true },
          SHM_MOUNT,
        ],
      },
    },
  },
  {
    name: "a hundred tmpfs mounts",
    metadata: {
      mounts: Array.from({ length: 100 }, (_, i) => ({
        kind: "tmpfs",
        source: null,
        target: `/tmp/m${i}`,
        read_only: null,
      })),
    },
    warnings: [],
  },

  // --- runtime ---------------------------------------------------------------------------------
  {
    name: "capabilities, privileged and seccomp from a repository",
    metadata: {
      runtime: runtime({
        cap_add: ["", "sys_admin", "CAP_NET_RAW", "chown", "bad cap!", "ünïcode", "CHOWN"],
        privileged: true,
        seccomp_unconfined: true,
      }),
    },
    warnings: [
      "capAdd: SYS_ADMIN, NET_RAW not added",
      "privileged: the container does not run privileged",
      "securityOpt seccomp=unconfined",
      'capAdd "BAD CAP!" is not a capability name',
      /capAdd "(ÜNÏCODE|\\u00dcN\\u00cfCODE)" is not a capability name/,
    ],
    expected: { pod: { capabilities: ["CHOWN"], privileged: false, seccompProfiles: [] } },
  },
  {
    name: "shm size, hostname and host aliases Kubernetes would reject",
    metadata: {
      runtime: runtime({
        shm_size_bytes: -1,
        hostname: "Not A Hostname!",
        host_aliases: [
          { ip: null, hostnames: null },
          { ip: "host-gateway", hostnames: ["db"] },
          { ip: "10.0.0.1", hostnames: ["ok.local", "bad name", "", null] },
          { ip: "10.0.0.2", hostnames: [] },
          { ip: "1::2::3", hostnames: ["v6"] },
          { ip: "::1", hostnames: ["LocalHost6"] },
        ],
      }),
    },
    warnings: [
      "runtime.shm_size_bytes -1",
      'runtime.hostname "not a hostname!"',
      "runtime.host_aliases[0].ip null is not an IP address",
      'runtime.host_aliases[1].ip "host-gateway" is not an IP address',
      'runtime.host_aliases[2].hostnames: ["bad name"] are not valid host names',
      'runtime.host_aliases[3] for "10.0.0.2" has no host names',
      'runtime.host_aliases[4].ip "1::2::3" is not an IP address',
    ],
    expected: {
      pod: {
        hostname: null,
        hostAliases: [
          { ip: "10.0.0.1", hostnames: ["ok.local"] },
          { ip: "::1", hostnames: ["localhost6"] },
        ],
        volumes: { dshm: "emptyDir:Memory:64Mi" },
      },
    },
  },
  {
    name: "user ids and home out of range",
    metadata: {
      runtime: runtime({
        remote_user_uid: -1,
        remote_user_gid: 1099511627776,
        remote_user_home: "relative/home",
        shm_size_bytes: 1.5,
      }),
    },
    warnings: [
      "runtime.remote_user_uid -1 is not a valid uid",
      "runtime.remote_user_gid 1099511627776 is not a valid gid",
      'runtime.remote_user_home "relative/home" is not usable as the home directory',
      "runtime.shm_size_bytes 1.5",
    ],
    expected: {
      pod: {
        runAsUser: "1000",
        runAsGroup: "1000",
        env: { DC_HOME: "/home/vscode" },
        volumes: { dshm: "emptyDir:Memory:64Mi" },
      },
    },
  },
  {
    name: "a home the pod mounts something else at",
    metadata: { runtime: runtime({ remote_user_home: "/dev/shm/" }) },
    warnings: [
      /^runtime\.remote_user_home "\/dev\/shm" is not usable .*; the home is \/home\/vscode\.$/,
    ],
    expected: {
      pod: {
        env: { DC_HOME: "/home/vscode" },
        mounts: [...STANDARD_MOUNTS("/home/vscode"), SHM_MOUNT],
      },
    },
  },
  {
    name: "a remote user that cannot be a user name",
    metadata: { remote_user: "bad/user:name", container_user: "also bad" },
    warnings: ['remote_user "bad/user:name" is not a usable user name'],
    expected: { pod: { env: { DC_REMOTE_USER: "root", DC_HOME: "/home/vscode" } } },
  },

  // --- workspace folder ------------------------------------------------------------------------
  {
    name: "a relative workspace folder",
    metadata: { workspace_folder: "src/app" },
    warnings: ['workspaceFolder "src/app" cannot be used as the workspace folder'],
    expected: { pod: { env: { DC_WORKSPACE_FOLDER: "/workspaces/app" } } },
  },
  {
    name: "a workspace folder with an unknown variable",
    metadata: { workspace_folder: "/workspaces/${localEnv:PROJECT}/src" },
    warnings: ['workspaceFolder "/workspaces/${localEnv:PROJECT}/src" cannot be used'],
    expected: { pod: { env: { DC_WORKSPACE_FOLDER: "/workspaces/app" } } },
  },

  {
    // The API server refuses a mount under /proc or /sys, and "//workspaces" beside the
    // template's own /workspaces as a duplicate: each used to fail the plan.
    name: "a workspace folder under /proc, mounts on system directories and doubled slashes",
    metadata: {
      workspace_folder: "/proc/self",
      mounts: [
        { kind: "tmpfs", source: null, target: "/etc", read_only: null },
        { kind: "tmpfs", source: null, target: "//sys/x", read_only: null },
        { kind: "volume", source: "w", target: "//workspaces", read_only: null },
        { kind: "volume", source: "src", target: "/usr/src//app", read_only: null },
      ],
    },
    warnings: [
      'workspaceFolder "/proc/self" is a system directory or lies under /proc, /sys or /dev',
      'mounts[0].target "/etc" is a system directory',
      'mounts[1].target "//sys/x" is a system directory',
      "The volume mount at /workspaces is not mounted: that path is already a mount point (/workspaces).",
    ],
    expected: {
      pod: {
        env: { DC_WORKSPACE_FOLDER: "/workspaces/app" },
        mounts: [
          ...STANDARD_MOUNTS("/home/vscode"),
          { path: "/usr/src/app", volume: "data", subPath: "volumes/src", readOnly: false },
          SHM_MOUNT,
        ],
      },
    },
  },
  {
    // Each of these reached the pod, and the API server refused the Deployment.
    name: "extended resource names that are no qualified names, and unknown capabilities",
    metadata: {
      configuration_json: kubernetes({
        resources: {
          limits: {
            ["example.com/" + "g".repeat(64)]: "1",
            "a.-b.com/gpu": "1",
            "requests.example.com/gpu": "1",
          },
        },
      }),
      // With allow_privileged too (test/devcontainer/runtime.test.ts): the runtime refuses it.
      runtime: runtime({ cap_add: ["FOO_BAR", "CHOWN"] }),
    },
    warnings: [
      /^customizations\.kubernetes resources\.limits\["example\.com\/g+"\] = "1": invalid resource name/,
      'resources.limits["a.-b.com/gpu"] = "1": invalid resource name',
      'resources.limits["requests.example.com/gpu"] = "1": invalid resource name (the prefix "requests." is reserved',
      'capAdd "FOO_BAR" is not a capability name',
    ],
    expected: { pod: { capabilities: ["CHOWN"] } },
  },

  // --- variables, warnings, scripts and unicode ------------------------------------------------
  {
    name: "variables of odd shapes",
    metadata: {
      variables: [
        { kind: null, name: null, default: null, used_in: null },
        { kind: "localEnv", name: "BAD-NAME", default: null, used_in: ["postCreateCommand"] },
        { kind: "localEnv", name: "ONLY_MOUNTS", default: null, used_in: ["mounts[0].source"] },
        { kind: "localEnv", name: "NO_USES", default: null, used_in: null },
        { kind: "localEnv", name: "HAS_DEFAULT", default: "", used_in: ["remoteEnv.X"] },
        {
          kind: "localEnv",
          name: "API_TOKEN",
          default: null,
          used_in: ["containerEnv.TOKEN", null],
        },
        { kind: "containerEnv", name: "PATH", default: null, used_in: ["remoteEnv.PATH"] },
      ],
    },
    inputs: { parameters: { devcontainer_variables: "API_TOKEN=\n# comment\n=oops\n" } },
    warnings: [],
    expected: { missingVariables: ["API_TOKEN"] },
  },
  {
    name: "service warnings with nulls, empty lines, unicode and a very long line",
    metadata: {
      warnings: [
        null,
        "",
        "Ünïcödé ⚠ runArgs --gpus all is not supported",
        `long ${"x".repeat(4000)}`,
      ],
    },
    warnings: ["Ünïcödé ⚠ runArgs --gpus all is not supported", /^long x{4000}$/],
  },
  {
    // One environment variable holds at most 128 KiB when the container starts: a larger
    // one would fail every start.
    name: "an env script too large for the pod's environment",
    metadata: {
      env_scripts: {
        containerEnv: `export BIG="${"x".repeat(120_000)}"\n`,
        remoteEnv: 'export EDITOR="vim"\n',
      },
    },
    warnings: [
      "containerEnv is 160020 characters as base64, more than the 131000 one environment variable of the pod can carry; none of it is set.",
    ],
    expected: {
      pod: {
        env: {
          DC_CONTAINER_ENV: "",
          DC_REMOTE_ENV: Buffer.from('export EDITOR="vim"\n').toString("base64"),
        },
      },
    },
  },
  {
    name: "scripts, extensions and settings with odd content",
    metadata: {
      lifecycle_scripts: {
        postCreateCommand: null,
        unknownHook: "rm -rf /",
        postStartCommand: "echo '$(whoami)' \"`id`\" ${HOME} %{x}\n",
      },
      env_scripts: { containerEnv: null, bogus: "export X=1" },
      extensions: [
        null,
        "",
        "ms-python.python",
        "MS-Python.Python",
        "-ms-python.python",
        "ünï.cödé",
      ],
      settings_json: "{not json",
      remote_user: "dévéloppeur",
      runtime: runtime({ remote_user_home: null }),
    },
    warnings: [
      'customizations.vscode.extensions "-ms-python.python" is not an extension ID',
      'customizations.vscode.extensions "ünï.cödé" is not an extension ID',
    ],
    expected: {
      pod: {
        env: { DC_REMOTE_USER: "dévéloppeur", DC_HOME: "/home/dévéloppeur", DC_CONTAINER_ENV: "" },
      },
      scriptInputs: [
        `DC_HOOK_POST_START_COMMAND='${Buffer.from("echo '$(whoami)' \"`id`\" ${HOME} %{x}\n").toString("base64")}'`,
        "DC_HOOK_POST_CREATE_COMMAND=''",
      ],
    },
  },

  // --- hostile values (docs/security.md, "Values from the repository") ------------------------
  {
    name: "hostile values in every field that reaches a link, a script, an app or a path",
    metadata: {
      workspace_folder: "/workspaces/app&url=https://attacker.example",
      remote_user: "vscode`id`",
      runtime: runtime({ remote_user_home: "/home/$(id)" }),
      mounts: [{ kind: "tmpfs", source: null, target: "/cache?x=1#y", read_only: null }],
      extensions: ["--install-extension=evil.vsix", "ms-python.python"],
      forward_ports: [
        { port: 3000, label: "🚀".repeat(20), protocol: "http", on_auto_forward: null },
      ],
    },
    warnings: [
      'workspaceFolder "/workspaces/app&url=https://attacker.example" cannot be used',
      'remote_user "vscode`id`" is not a usable user name',
      'runtime.remote_user_home "/home/$(id)" is not usable as the home directory',
      'mounts[0].target "/cache?x=1#y" is not an absolute path',
      'customizations.vscode.extensions "--install-extension=evil.vsix" is not an extension ID',
      `portsAttributes label "${"🚀".repeat(20)}" of forwardPorts[0] is longer than 64 bytes`,
    ],
    expected: {
      pod: {
        env: { DC_WORKSPACE_FOLDER: "/workspaces/app", DC_REMOTE_USER: "root", DC_HOME: "/root" },
        mounts: [...STANDARD_MOUNTS("/root"), SHM_MOUNT],
      },
      ports: [{ displayName: "🚀".repeat(16), url: "http://localhost:3000" }],
    },
  },
  {
    name: "a label whose first character alone is over 64 bytes",
    metadata: {
      forward_ports: [
        { port: 8080, label: `e${"\u0301".repeat(40)}`, protocol: null, on_auto_forward: null },
      ],
    },
    warnings: [
      /^portsAttributes label .* of forwardPorts\[0\] is longer than 64 bytes; the app is named "Port 8080"\.$/,
    ],
    expected: { ports: [{ displayName: "Port 8080", url: "http://localhost:8080" }] },
  },
  {
    // An escape sequence in an app's name would act in a terminal that prints it.
    name: "a label with control characters",
    metadata: {
      forward_ports: [
        { port: 3000, label: "Web\u001b[31m\nApp\u0007", protocol: null, on_auto_forward: null },
        { port: 3001, label: "\u0000\u009b", protocol: null, on_auto_forward: null },
        // At either end only: trimspace() alone would drop them without a word.
        { port: 3002, label: "\tTab\n", protocol: null, on_auto_forward: null },
        // A right-to-left override would show "NIGOL" in the dashboard; soft hyphens no name.
        { port: 3003, label: "Admin \u202eLOGIN", protocol: null, on_auto_forward: null },
        { port: 3004, label: "\u00ad".repeat(70), protocol: null, on_auto_forward: null },
      ],
    },
    warnings: [
      'portsAttributes label "Web\\u001b[31m\\nApp\\u0007" of forwardPorts[0] holds control or invisible characters; they became spaces.',
      // jsonencode leaves a C1 character (U+009B) as it is; the build log's rule makes it a space.
      'portsAttributes label "\\u0000 " of forwardPorts[1] holds control or invisible characters; they became spaces.',
      'portsAttributes label "\\tTab\\n" of forwardPorts[2] holds control or invisible characters; they became spaces.',
      // The build log's rule makes the override and the soft hyphens spaces too.
      'portsAttributes label "Admin  LOGIN" of forwardPorts[3] holds control or invisible characters; they became spaces.',
      'portsAttributes label " " of forwardPorts[4] holds control or invisible characters; they became spaces.',
    ],
    expected: {
      ports: [
        { displayName: "Web [31m App", url: "http://localhost:3000" },
        { displayName: "Port 3001", url: "http://localhost:3001" },
        { displayName: "Tab", url: "http://localhost:3002" },
        { displayName: "Admin  LOGIN", url: "http://localhost:3003" },
        { displayName: "Port 3004", url: "http://localhost:3004" },
      ],
    },
  },
];

// --- Random fixtures --------------------------------------------------------------------------

/** mulberry32: a small seeded PRNG, so random fixtures are the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One generated case: the whole metadata and the template inputs. */
export interface RandomCase {
  readonly name: string;
  readonly metadata: DevcontainerMetadata;
  readonly inputs: PlanInputs;
  readonly sanity: SanityContext;
}

const NUMBERS = [null, 0, -1, 1, 1.5, 2, 4, 64, 1e6, 1e30, -1e30, 2147483648, 0.001];
const TEXTS = [
  null,
  "",
  " ",
  "root",
  "vscode",
  "/",
  "/workspaces",
  "/workspaces/app",
  "/home/vscode",
  "/dev/shm",
  "relative/path",
  "/with space/x",
  "/x/../y",
  "${localWorkspaceFolder}/sub",
  "${localEnv:HOME}",
  "$(rm -rf /)",
  "'quoted' \"double\" `back` \\",
  "%{ if true }x%{ endif }",
  "ünïcödé 🚀 ✓",
  "line\nbreak\ttab",
  "x".repeat(300),
  // Hostile values (docs/security.md, "Values from the repository").
  "/workspaces/app&url=https://attacker.example",
  "/workspaces/a$(id)",
  '/home/x";id;"',
  "/c++/x?y#z",
  "--extensions-dir=/tmp",
  "é".repeat(40),
  `${"a".repeat(63)}🇫🇷`,
];
const TEXT_ALPHABET = [..."abcXYZ019 -_./:${}'\"\\%=@#*?[]\n\téü🚀中"];
const QUANTITIES = [
  "1",
  "2.5",
  ".5",
  "500m",
  "4Gi",
  "100Gi",
  "1e3",
  "-1",
  "",
  "abc",
  "1.5.5",
  4,
  -2,
  1e30,
  true,
  null,
  {},
  [],
];
const RESOURCE_NAMES = [
  "cpu",
  "memory",
  "ephemeral-storage",
  "nvidia.com/gpu",
  "hugepages-2Mi",
  "bad name",
  "",
  "ÜBER/gpu",
];
const GPU_JSON = [
  null,
  "",
  "true",
  "false",
  '"optional"',
  "{}",
  '{"cores":2,"memory":"8gb"}',
  "1",
  "[1]",
  "garbage{",
  "null",
];
const IPS = [
  null,
  "",
  "10.0.0.1",
  "::1",
  ":",
  "1::2::3",
  "host-gateway",
  "999.1.1.1",
  "fe80::1%eth0",
];

/**
 * `count` random metadata fixtures from `seed`: each attribute is kept valid, made null, or
 * replaced by a random value of its schema type (odd strings, extreme numbers, collections of
 * odd entries, JSON texts of any shape, customizations.kubernetes of any shape).
 */
export function randomBadInputCases(seed: number, count: number): RandomCase[] {
  const random = seededRandom(seed);
  const chance = (p: number) => random() < p;
  const int = (max: number) => Math.floor(random() * max);
  const pick = <T>(values: readonly T[]): T => values[int(values.length)];
  const listOf = <T>(max: number, item: () => T): T[] => Array.from({ length: int(max + 1) }, item);
  const text = (): string | null =>
    chance(0.7) ? pick(TEXTS) : listOf(12, () => pick(TEXT_ALPHABET)).join("");
  const bool = () => pick([null, true, false]);
  const json = (depth: number): unknown => {
    const kinds = depth > 2 ? 4 : 6;
    switch (int(kinds)) {
      case 0:
        return null;
      case 1:
        return pick(NUMBERS.filter((n) => n !== null));
      case 2:
        return text();
      case 3:
        return bool();
      case 4:
        return listOf(3, () => json(depth + 1));
      default:
        return Object.fromEntries(listOf(3, () => [text() ?? "k", json(depth + 1)]));
    }
  };
  const resourceMap = () =>
    Object.fromEntries(listOf(3, () => [pick(RESOURCE_NAMES), pick(QUANTITIES)]));
  const toleration = () =>
    chance(0.2)
      ? json(2)
      : Object.fromEntries(
          [
            ["key", pick([null, "", "gpu", "dedicated"])],
            ["operator", pick([null, "Equal", "Exists", "Bogus"])],
            ["value", pick([null, "", "yes"])],
            ["effect", pick([null, "", "NoSchedule", "NoExecute", "Sometimes"])],
            ["tolerationSeconds", pick([null, 30, "30", "soon", -1, 1e30])],
          ].filter(() => chance(0.7)),
        );
  const kubernetesEntry = (): unknown =>
    chance(0.2)
      ? json(1)
      : Object.fromEntries(
          [
            [
              "resources",
              chance(0.8) ? { requests: resourceMap(), limits: resourceMap() } : json(2),
            ],
            [
              "nodeSelector",
              chance(0.7)
                ? { "kubernetes.io/arch": pick(["amd64", "arm64", 7]), pool: text() }
                : json(2),
            ],
            ["tolerations", chance(0.7) ? listOf(3, toleration) : json(2)],
            ["storage", pick(QUANTITIES)],
          ].filter(() => chance(0.5)),
        );
  const configuration = (): string | null => {
    switch (int(5)) {
      case 0:
        return pick([null, "", "null", "[]", '"text"', "{not json"]);
      case 1:
        return JSON.stringify(json(0));
      default:
        return JSON.stringify({
          customizations: { kubernetes: chance(0.85) ? listOf(3, kubernetesEntry) : json(1) },
        });
    }
  };

  // Each attribute: keep the valid value, make it null, or a random value of its type.
  const generators: Record<string, () => unknown> = {
    id: text,
    digest: text,
    remote_user: text,
    container_user: text,
    workspace_folder: text,
    configuration_json: configuration,
    metadata_json: () => JSON.stringify(json(0)),
    settings_json: () => (chance(0.5) ? text() : JSON.stringify(json(0))),
    extensions: () => listOf(4, text),
    lifecycle_scripts: () =>
      Object.fromEntries(
        listOf(4, () => [
          pick([
            "onCreateCommand",
            "postCreateCommand",
            "postStartCommand",
            "postAttachCommand",
            "weird",
          ]),
          text(),
        ]),
      ),
    env_scripts: () =>
      Object.fromEntries(listOf(3, () => [pick(["containerEnv", "remoteEnv", "x"]), text()])),
    variables: () =>
      listOf(4, () => ({
        kind: pick([null, "localEnv", "containerEnv", "context", ""]),
        name: pick([null, "", "API_TOKEN", "BAD-NAME", "HOME", "ü"]),
        default: pick([null, "", "x"]),
        used_in: chance(0.2)
          ? null
          : listOf(2, () =>
              pick([null, "", "mounts[0].source", "postCreateCommand", "containerEnv.X"]),
            ),
      })),
    warnings: () => listOf(4, text),
    forward_ports: () =>
      listOf(chance(0.1) ? 200 : 12, () => ({
        port: chance(0.3) ? pick([null, ...NUMBERS]) : 1 + int(65535),
        // Over 64 bytes too, multi-byte ones among them: lib/devcontainer/apps.ts caps labels.
        label: text(),
        protocol: pick([null, "", "http", "https", "HTTPS", "tcp"]),
        on_auto_forward: pick([null, "", "notify", "silent", "ignore"]),
      })),
    mounts: () =>
      listOf(6, () => ({
        kind: pick([null, "", "volume", "volume", "tmpfs", "tmpfs", "bind"]),
        source: pick([null, "", "cache", "node_modules-${devcontainerId}", "../etc", text()]),
        target: chance(0.5)
          ? pick(["/cache", "/workspaces/app/node_modules", "/home/vscode/.cache"])
          : text(),
        read_only: bool(),
      })),
    runtime: () => ({
      remote_user_uid: pick(NUMBERS),
      remote_user_gid: pick(NUMBERS),
      remote_user_home: text(),
      cap_add: chance(0.2)
        ? null
        : listOf(4, () => pick([null, "", "SYS_ADMIN", "chown", "CAP_NET_RAW", "bad cap", "ünï"])),
      privileged: bool(),
      init: bool(),
      seccomp_unconfined: bool(),
      shm_size_bytes: pick(NUMBERS),
      hostname: text(),
      host_aliases: chance(0.2)
        ? null
        : listOf(3, () => ({ ip: pick(IPS), hostnames: chance(0.2) ? null : listOf(3, text) })),
    }),
    host_requirements: () => ({
      cpus: pick(NUMBERS),
      memory_bytes: pick(NUMBERS),
      storage_bytes: pick(NUMBERS),
      gpu_json: pick(GPU_JSON),
    }),
  };

  // Drawn once per seed, not per case: cases with the same parameters plan in one module batch
  // (BadInputPlanner.planMany), and other seeds draw the other values.
  const variablesParameter = pick(["", "API_TOKEN=x", "API_TOKEN=\n=x\n# c", "ü=1"]);
  return Array.from({ length: count }, (_, index) => {
    const metadata: Record<string, unknown> = { ...VALID_METADATA };
    for (const [name, generate] of Object.entries(generators)) {
      const roll = random();
      if (roll < 0.15) metadata[name] = null;
      else if (roll < 0.65) metadata[name] = generate();
    }
    const allowPrivileged = chance(0.3);
    const allowNodePlacement = chance(0.5);
    return {
      name: `random case ${index} (seed ${seed})`,
      metadata,
      inputs: {
        variables: { allow_privileged: allowPrivileged, allow_node_placement: allowNodePlacement },
        parameters: { devcontainer_variables: variablesParameter },
      },
      sanity: { allowPrivileged },
    };
  });
}

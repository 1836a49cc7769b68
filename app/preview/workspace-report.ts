/**
 * What a first start of the devcontainer template gives a workspace, read from the
 * resource values Terraform computed (a plan's planned values, or the state after an
 * apply against mock providers): the pod's resources, placement, user, mounts and runtime,
 * the PVC's size, the apps, and the warnings the build log would show. Nothing here
 * decides anything; every value is Terraform's.
 */
import { VARIABLE_NAME_PATTERN } from "../../lib/devcontainer/warnings";

/** What the `dev` wrapper can export: the shell's variable names (the template's own rule). */
const SHELL_VARIABLE_NAME = new RegExp(VARIABLE_NAME_PATTERN);

/** The parts of a plan this reads (the plan harness's PlanResult has them). */
export interface PlanView {
  readonly resourceChanges: readonly {
    readonly address: string;
    readonly after: Record<string, unknown>;
  }[];
  readonly outputs: Readonly<Record<string, { readonly value: unknown }>>;
  readonly warnings: readonly {
    readonly summary: string;
    readonly detail: string;
    readonly address?: string;
  }[];
}

/** One mount of the `dev` container. */
export interface ReportMount {
  readonly path: string;
  /** e.g. "PVC subPath home", "emptyDir (memory, 64Mi)". */
  readonly source: string;
  readonly readOnly: boolean;
  /**
   * Whether seed-home copies the image's content at this path into the volume on its first
   * use (as Docker does for a new, empty volume): a volume's first mount.
   */
  readonly seededFromImage: boolean;
}

/** One app on the workspace page. */
export interface ReportApp {
  readonly name: string;
  readonly detail: string;
}

/** An env script the wrapper does not apply, and the names in it that no shell can export. */
export interface SkippedEnvScript {
  readonly kind: "containerEnv" | "remoteEnv";
  readonly refusedNames: readonly string[];
}

/** One variable in the environment of everything the agent starts (terminals, IDEs, hooks). */
export interface ReportEnvironmentVariable {
  readonly name: string;
  /**
   * The value: literal for the template's own, the body of the `export NAME="…"` line for
   * containerEnv and remoteEnv (expanded by sh at start), null when it is not shown (Dev
   * Container variables hold tokens).
   */
  readonly value: string | null;
  /**
   * "template", "Dev Container variables", "workspace user (no local host)", "containerEnv",
   * "remoteEnv" or "coder_env".
   */
  readonly from: string;
  /** A later entry of the same name wins over this one. */
  readonly overridden: boolean;
}

/** A lifecycle command as the workspace runs it. */
export interface ReportLifecycleCommand {
  readonly hook: string;
  /** The script the workspace decodes and runs with sh. */
  readonly script: string;
  /** When and how it runs. */
  readonly when: string;
  /** Whether the user waits for it before they can log in (waitFor and the hooks before it). */
  readonly blocksLogin: boolean;
}

/** The planned workspace. */
export interface WorkspaceReport {
  readonly resources: {
    readonly requests: Readonly<Record<string, string>>;
    readonly limits: Readonly<Record<string, string>>;
    readonly disk: string | null;
    /** The "Resources (reserved / limit)" text on the workspace page. */
    readonly summary: string | null;
  };
  readonly placement: {
    readonly nodeSelector: Readonly<Record<string, string>>;
    readonly tolerations: readonly Readonly<Record<string, unknown>>[];
    readonly antiAffinity: boolean;
  };
  readonly user: {
    readonly name: string | null;
    readonly uid: number | null;
    readonly gid: number | null;
    readonly fsGroup: number | null;
    readonly home: string | null;
    readonly workspaceFolder: string | null;
    /** Where the repository is cloned: workspaceMount's target, else the workspace folder. */
    readonly repositoryFolder: string | null;
  };
  readonly mounts: readonly ReportMount[];
  readonly runtime: {
    readonly capabilities: readonly string[];
    readonly privileged: boolean;
    readonly seccompUnconfined: boolean;
    readonly shareProcessNamespace: boolean;
    readonly hostname: string | null;
    readonly hostAliases: readonly string[];
    /**
     * The Pod Security level the pod meets, as the workspace page's "Pod Security" item
     * shows it, and the level the template variable `pod_security_level` asks for (a root
     * user keeps a restricted request at baseline).
     */
    readonly podSecurity: { readonly level: string | null; readonly requested: string | null };
  };
  readonly apps: readonly ReportApp[];
  /** Scripts that run at start (display names). */
  readonly scripts: readonly string[];
  /** The environment, in the order it is set. */
  readonly environment: readonly ReportEnvironmentVariable[];
  /** Env scripts the `dev` wrapper skips whole: an entry's name is no shell variable name. */
  readonly skippedEnvScripts: readonly SkippedEnvScript[];
  /** The lifecycle commands, in the order they run. */
  readonly lifecycle: readonly ReportLifecycleCommand[];
  /** The build log's Dev Container warnings, in the template's order. */
  readonly warnings: readonly string[];
  /** `${localEnv:…}` names the workspace needs and the "Dev Container variables" text lacks. */
  readonly missingVariables: readonly string[];
  /** Terraform warnings that are not the template's checks (e.g. a redacted check message). */
  readonly otherDiagnostics: readonly string[];
}

/** Outputs preview adds to its copy of the template, for the lists the checks print. */
export const PREVIEW_OUTPUTS = {
  warnings: "preview_all_warnings",
  missingVariables: "preview_missing_variables",
  podSecurityRequested: "preview_pod_security_requested",
} as const;

const WARNINGS_CHECK = "check.devcontainer_warnings";
const VARIABLES_CHECK = "check.devcontainer_variables";
const CHECK_FAILED = "Check block assertion failed";
/** Terraform's detail of a failed check whose message it could not print. */
const INVALID_MESSAGE = /invalid error message/;

/** Reads the report from a plan of a started workspace. */
export function readWorkspaceReport(plan: PlanView): WorkspaceReport {
  const after = (address: string) => plan.resourceChanges.find((r) => r.address === address)?.after;
  const deployment = after("kubernetes_deployment_v1.main[0]");
  if (deployment === undefined) {
    throw new Error(
      "the plan has no kubernetes_deployment_v1.main[0]: the workspace would not start",
    );
  }
  const pod = first(first(first(deployment.spec)?.template)?.spec) ?? {};
  const containers = list(pod.container);
  const dev = containers.find((c) => c.name === "dev") ?? containers[0] ?? {};
  const env = Object.fromEntries(list(dev.env).map((e) => [String(e.name), e.value]));
  const podSecurity = first(pod.security_context) ?? {};
  const containerSecurity = first(dev.security_context) ?? {};
  const resources = first(dev.resources) ?? {};
  const claim = after("kubernetes_persistent_volume_claim_v1.data");
  const claimRequests = first(first(claim?.spec)?.resources)?.requests;

  const mounts = readMounts(pod, dev);
  const agent = after("coder_agent.main");
  const summaryItem = list(agent?.metadata).find((m) => m.key === "9_resources");
  const podSecurityItem = list(agent?.metadata).find((m) => m.key === "9_pod_security");
  const requested = plan.outputs[PREVIEW_OUTPUTS.podSecurityRequested]?.value;

  return {
    resources: {
      requests: stringMap(resources.requests),
      limits: stringMap(resources.limits),
      disk: stringOr(isRecord(claimRequests) ? claimRequests.storage : undefined),
      summary: echoed(summaryItem?.script),
    },
    placement: {
      nodeSelector: stringMap(pod.node_selector),
      tolerations: list(pod.toleration).map((t) =>
        Object.fromEntries(Object.entries(t).filter(([, v]) => v !== null && v !== "")),
      ),
      antiAffinity: list(first(pod.affinity)?.pod_anti_affinity).length > 0,
    },
    user: {
      name: stringOr(env.DC_REMOTE_USER),
      uid: numberOr(podSecurity.run_as_user),
      gid: numberOr(podSecurity.run_as_group),
      fsGroup: numberOr(podSecurity.fs_group),
      home: stringOr(env.DC_HOME),
      workspaceFolder: stringOr(env.DC_WORKSPACE_FOLDER),
      repositoryFolder: quotedInput(
        after("coder_script.devcontainer_lifecycle[0]")?.script,
        "DC_REPOSITORY_FOLDER",
      ),
    },
    mounts,
    runtime: {
      capabilities: strings(first(containerSecurity.capabilities)?.add),
      privileged: containerSecurity.privileged === true,
      seccompUnconfined: list(containerSecurity.seccomp_profile).some(
        (p) => p.type === "Unconfined",
      ),
      shareProcessNamespace: pod.share_process_namespace === true,
      hostname: stringOr(pod.hostname),
      hostAliases: list(pod.host_aliases).map(
        (a) => `${String(a.ip)} ${(Array.isArray(a.hostnames) ? a.hostnames : []).join(" ")}`,
      ),
      podSecurity: { level: echoed(podSecurityItem?.script), requested: stringOr(requested) },
    },
    apps: readApps(plan),
    scripts: plan.resourceChanges
      .filter((r) => r.address.startsWith("coder_script."))
      .map((r) => String(r.after.display_name)),
    ...readEnvironment(plan, env),
    lifecycle: readLifecycle(plan),
    ...readWarnings(plan),
  };
}

/** Container `dev`'s mounts: their volumes, and which the seed-home init container seeds. */
function readMounts(pod: Record<string, unknown>, dev: Record<string, unknown>): ReportMount[] {
  const volumes = new Map(list(pod.volume).map((v) => [String(v.name), v]));
  const seedHome = list(pod.init_container).find((c) => c.name === "seed-home");
  const seeded = new Set(
    String(list(seedHome?.env).find((e) => e.name === "SEED_VOLUMES")?.value ?? "")
      .split(" ")
      .filter(Boolean),
  );
  return list(dev.volume_mount).map((m) => ({
    path: String(m.mount_path),
    source: volumeSource(volumes.get(String(m.name)), String(m.name), stringOr(m.sub_path)),
    readOnly: m.read_only === true,
    seededFromImage: seeded.has(`${String(m.sub_path)}=${String(m.mount_path)}`),
  }));
}

/**
 * An export line's `"…"` body as the value it sets: the backslashes that keep `" \ \``
 * literal go; a `${…}` reference stays as written (the workspace expands it), and a literal
 * `${` keeps its backslash so that it does not read as one.
 */
function shownValue(body: string): string {
  return body.replace(/\\([\\"`]|\$(?!\{))/g, "$1");
}

/**
 * `value` with `${NAME}` of a variable the template sets to a known value (the workspace
 * folder, its basename, the workspace id) replaced by it, as the workspace's shell expands it.
 */
function expandKnown(value: string, known: Readonly<Record<string, string>>): string {
  return value.replace(/(?<!\\)\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) =>
    Object.hasOwn(known, name) ? known[name] : whole,
  );
}

/**
 * The `export NAME="…"` lines of a base64 env script as [name, value] pairs, or the names that
 * make the wrapper skip the script whole.
 */
function envScriptExports(
  base64: string,
): readonly (readonly [name: string, value: string])[] | { readonly refusedNames: string[] } {
  const script = Buffer.from(base64, "base64").toString("utf8");
  const exports = [...script.matchAll(/^export ([^"\n]*)="((?:[^"\\]|\\.)*)"$/gm)];
  // The wrapper skips a script whole when a line's name is no shell variable name
  // (dev-entrypoint.sh, step 3): `A-B`, but also `X PATH` (which the shell would take as X,
  // then PATH) and `A=B` (A, set to `B="…"`).
  const refusedNames = exports.map((m) => m[1]).filter((name) => !SHELL_VARIABLE_NAME.test(name));
  if (refusedNames.length > 0) return { refusedNames: [...new Set(refusedNames)] };
  return exports.map((m) => [m[1], shownValue(m[2])] as const);
}

/**
 * The environment the `dev` container's wrapper builds before it starts the agent
 * (devcontainer-template.md §17), then the template's coder_env resources.
 */
function readEnvironment(
  plan: PlanView,
  env: Readonly<Record<string, unknown>>,
): Pick<WorkspaceReport, "environment" | "skippedEnvScripts"> {
  const entries: Omit<ReportEnvironmentVariable, "overridden">[] = [];
  const skippedEnvScripts: SkippedEnvScript[] = [];
  const add = (name: string, value: string | null, from: string) =>
    entries.push({ name, value, from });
  const folder = stringOr(env.DC_WORKSPACE_FOLDER);
  if (folder !== null) {
    add("DEVCONTAINER_WORKSPACE_FOLDER", folder, "template");
    add("DEVCONTAINER_WORKSPACE_FOLDER_BASENAME", folder.split("/").pop() ?? "", "template");
  }
  if (stringOr(env.DC_ID) !== null) add("DEVCONTAINER_ID", String(env.DC_ID), "template");
  // The pod reads DC_VARIABLES from the workspace's Secret (secretKeyRef), not a literal.
  const variablesSecret = plan.resourceChanges.find(
    (r) => r.address === "kubernetes_secret_v1.devcontainer_variables",
  )?.after?.data as Record<string, unknown> | undefined;
  const given = new Set<string>();
  const variablesText = env.DC_VARIABLES ?? variablesSecret?.DC_VARIABLES ?? "";
  for (const line of String(variablesText).split("\n")) {
    const name = line.split("=")[0].trim();
    if (line.includes("=") && /^[A-Za-z0-9_]+$/.test(name)) {
      add(`DEVCONTAINER_LOCALENV_${name}`, null, "Dev Container variables");
      given.add(name);
    }
  }
  // ${localEnv:HOME} and the other names every machine has, when the user set none: the
  // workspace user's (dev-entrypoint.sh, step 2); PATH and SHELL are the container's own.
  const defaults = String(env.DC_LOCALENV_DEFAULTS ?? "")
    .split("\n")
    .filter((line) => /^[A-Za-z0-9_]+=/.test(line))
    .map((line): [string, string | null] => [
      line.slice(0, line.indexOf("=")),
      line.slice(line.indexOf("=") + 1),
    ]);
  for (const [name, value] of [...defaults, ["PATH", null], ["SHELL", null]] as const) {
    if (given.has(name)) continue;
    add(
      `DEVCONTAINER_LOCALENV_${name}`,
      value ?? (name === "PATH" ? "(the image's PATH)" : "(the user's login shell)"),
      "workspace user (no local host)",
    );
  }
  // What the wrapper exports before the env scripts and is known here: shown expanded.
  const known = Object.fromEntries(
    entries.flatMap((e) =>
      e.value === null || e.value.startsWith("(") ? [] : [[e.name, e.value] as const],
    ),
  );
  for (const [variable, from] of [
    ["DC_CONTAINER_ENV", "containerEnv"],
    ["DC_REMOTE_ENV", "remoteEnv"],
  ] as const) {
    const exports = envScriptExports(String(env[variable] ?? ""));
    if ("refusedNames" in exports) skippedEnvScripts.push({ kind: from, ...exports });
    else for (const [name, value] of exports) add(name, expandKnown(value, known), from);
  }
  const home = stringOr(env.DC_HOME);
  const user = stringOr(env.DC_REMOTE_USER);
  if (home !== null) add("HOME", home, "template");
  if (user !== null) for (const name of ["USER", "LOGNAME"]) add(name, user, "template");
  for (const r of plan.resourceChanges) {
    if (r.address.startsWith("coder_env.") && typeof r.after.name === "string") {
      add(r.after.name, stringOr(r.after.value) ?? "", "coder_env");
    }
  }
  // Each name's last place, from one map: comparing every entry with the later ones made
  // n variables cost n².
  const last = new Map(entries.map((e, i) => [e.name, i]));
  return {
    environment: entries.map((e, i) => ({ ...e, overridden: last.get(e.name) !== i })),
    skippedEnvScripts,
  };
}

/** The scripts and when they run, in the order their hooks run. */
const LIFECYCLE_SCRIPTS: readonly (readonly [address: string, when: string])[] = [
  [
    "coder_script.devcontainer_lifecycle[0]",
    "every start, before login (Dev Container lifecycle), from the workspace folder",
  ],
  [
    "coder_script.devcontainer_lifecycle_background[0]",
    "every start, after login (waitFor is an earlier hook), once the login-blocking commands " +
      "succeeded, in order, from the workspace folder",
  ],
  [
    "coder_script.devcontainer_post_attach[0]",
    "every start, once the login-blocking commands succeeded (not waiting for the ones after " +
      "login), from the workspace folder",
  ],
];

/** The hooks the planned scripts embed (`DC_HOOK_<NAME>='<base64>'` inputs). */
function readLifecycle(plan: PlanView): ReportLifecycleCommand[] {
  const commands: ReportLifecycleCommand[] = [];
  for (const [address, when] of LIFECYCLE_SCRIPTS) {
    const resource = plan.resourceChanges.find((r) => r.address === address)?.after;
    const script = resource?.script;
    if (typeof script !== "string") continue;
    const blocksLogin = resource?.start_blocks_login === true;
    for (const m of script.matchAll(/^DC_HOOK_([A-Z_]+)='([A-Za-z0-9+/=]*)'$/gm)) {
      if (m[2] === "") continue;
      const hook = m[1].toLowerCase().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
      // initializeCommand runs in the clone, the repository's root (lifecycle.sh).
      const from =
        hook === "initializeCommand"
          ? when.replace(/from the workspace folder$/, "from the repository's clone")
          : when;
      commands.push({
        hook,
        script: Buffer.from(m[2], "base64").toString("utf8"),
        when: blocksLogin && !from.includes("before login") ? `${from}, before login` : from,
        blocksLogin,
      });
    }
  }
  return commands;
}

function readApps(plan: PlanView): ReportApp[] {
  const apps: ReportApp[] = [];
  const has = (prefix: string) => plan.resourceChanges.some((r) => r.address.startsWith(prefix));
  if (has("module.vscode_web["))
    apps.push({ name: "VS Code (browser)", detail: "vscode-web module" });
  if (has("module.vscode_desktop["))
    apps.push({ name: "VS Code Desktop", detail: "vscode-desktop module" });
  for (const r of plan.resourceChanges) {
    if (!r.address.startsWith("coder_app.") || r.after.hidden === true) continue;
    apps.push({
      name: String(r.after.display_name ?? r.after.slug),
      detail: `${String(r.after.url)} (${String(r.after.slug)})`,
    });
  }
  return apps;
}

function readWarnings(
  plan: PlanView,
): Pick<WorkspaceReport, "warnings" | "missingVariables" | "otherDiagnostics"> {
  const failed = (check: string) =>
    plan.warnings.filter((d) => d.summary === CHECK_FAILED && d.address?.startsWith(check));
  const fromOutput = (name: string): string[] | undefined => {
    const value = plan.outputs[name]?.value;
    return Array.isArray(value) ? value.map(String) : undefined;
  };
  // The outputs hold the lists themselves; the check messages are the fallback (their
  // first line is a heading, then one "- " line per warning).
  const warnings =
    fromOutput(PREVIEW_OUTPUTS.warnings) ??
    failed(WARNINGS_CHECK).flatMap((d) =>
      d.detail
        .split("\n")
        .filter((l) => l.startsWith("- "))
        .map((l) => l.slice(2)),
    );
  const missingVariables = fromOutput(PREVIEW_OUTPUTS.missingVariables) ?? [];
  const ours = new Set([WARNINGS_CHECK, VARIABLES_CHECK]);
  // A failed check of ours with a readable message is shown as the lists above; anything
  // else (another warning, or a message Terraform could not print) is shown as it is.
  const shownAsLists = (d: PlanView["warnings"][number]) =>
    d.summary === CHECK_FAILED && ours.has(checkOf(d.address)) && !INVALID_MESSAGE.test(d.detail);
  const otherDiagnostics = plan.warnings
    .filter((d) => !shownAsLists(d))
    .map((d) => `${d.summary}${d.address ? ` (${d.address})` : ""}: ${d.detail.split("\n")[0]}`);
  return { warnings, missingVariables, otherDiagnostics };
}

function checkOf(address: string | undefined): string {
  return address?.split(".").slice(0, 2).join(".") ?? "";
}

function volumeSource(
  volume: Record<string, unknown> | undefined,
  name: string,
  subPath: string | null,
): string {
  if (volume === undefined) return name;
  const claim = first(volume.persistent_volume_claim);
  if (claim !== undefined) return `PVC ${subPath ? `subPath ${subPath}` : "(whole)"}`;
  const emptyDir = first(volume.empty_dir);
  if (emptyDir !== undefined) {
    const medium = emptyDir.medium === "Memory" ? "memory" : "node disk";
    const size = stringOr(emptyDir.size_limit);
    return `emptyDir ${name} (${medium}${size ? `, ${size}` : ""})`;
  }
  return name;
}

/** The value of a planned script's `NAME='…'` input (a folder: no quote in it), or null. */
function quotedInput(script: unknown, name: string): string | null {
  if (typeof script !== "string") return null;
  return stringOr(new RegExp(`^${name}='([^']*)'$`, "m").exec(script)?.[1]);
}

/** The text of an `echo '…'` (or `echo word`) metadata script. */
function echoed(script: unknown): string | null {
  if (typeof script !== "string") return null;
  const m = /^echo (?:'([\s\S]*)'|([^\s'"\\$]+))$/.exec(script.trim());
  if (!m) return script;
  return m[2] ?? m[1].replace(/'\\''/g, "'");
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function list(v: unknown): Record<string, unknown>[] {
  return Array.isArray(v) ? v.filter(isRecord) : [];
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
}

function first(v: unknown): Record<string, unknown> | undefined {
  return list(v)[0];
}

function stringMap(v: unknown): Record<string, string> {
  if (!isRecord(v)) return {};
  return Object.fromEntries(
    Object.entries(v)
      .filter(([, value]) => value !== null && value !== undefined)
      .map(([k, value]) => [k, String(value)]),
  );
}

function stringOr(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}

/** A number; the kubernetes provider types user and group ids as strings. */
function numberOr(v: unknown): number | null {
  if (typeof v === "number") return v;
  return typeof v === "string" && /^\d+$/.test(v) ? Number(v) : null;
}

/**
 * What `data.devcontainerbuilder_devcontainer` would return for a devcontainer.json,
 * as far as the file alone tells it. This is a mapping of the file to the data source's
 * attributes (the service's side of the contract), never the template's decisions: the
 * template's own Terraform turns these values into requests, mounts and warnings.
 *
 * What only the service knows (Features, the base image's metadata label, the uid/gid and
 * home recorded from the image's /etc/passwd, the image's USER) is stated in `unknowns`
 * and replaced by the assumptions listed in `assumptions`.
 */
import { renderLifecycleScripts } from "./lifecycle-scripts";
import { mapMounts } from "./mounts";
import { parseRunArgs, type RunArgsRuntime } from "./run-args";
import {
  doubleQuotedBody,
  findVariableReferences,
  isReferenceName,
  type VariableReference,
} from "./variable-references";

/** Attribute values for the mock data source, plus what was unknown and assumed. */
export interface DerivedMetadata {
  /** The data source's computed attributes (plain JSON, as in Terraform state). */
  readonly values: Record<string, unknown>;
  /** What the service would report that this file cannot tell. */
  readonly unknowns: readonly string[];
  /** What preview assumed in their place. */
  readonly assumptions: readonly string[];
  /** The `--add-host` options behind each `runtime.host_aliases` entry, as written. */
  readonly hostAliasSources: readonly (readonly string[])[];
}

/** What only the service knows, when the user knows it (`npm run preview -- --remote-user`…). */
export interface MetadataAssumptions {
  /**
   * The user the service reports (its `remoteUser`: the file's remoteUser or containerUser,
   * else the image's metadata label or USER). Wins over the file when given.
   * @default the file's remoteUser, else its containerUser, else "root"
   */
  readonly remoteUser?: string;
  /**
   * Where `remoteUser` comes from, when preview assumed it rather than the user giving it
   * (e.g. "the Dockerfile's last USER"). @default given with --remote-user
   */
  readonly remoteUserFrom?: string;
  /** The uid the service records from the image's /etc/passwd. @default 0 for root, else 1000 */
  readonly uid?: number;
  /** The gid the service records. @default the uid */
  readonly gid?: number;
}

/** Where the image comes from, as the Dev Containers CLI decides it. */
export type ImageSource =
  | { readonly kind: "image"; readonly image: string }
  | { readonly kind: "dockerfile"; readonly property: string; readonly dockerfile: string }
  | { readonly kind: "compose"; readonly service: string | undefined };

/**
 * The image source of a configuration, or undefined when it names none (the Dev Containers
 * CLI then fails with "No image information specified in devcontainer.json"). In the CLI's
 * order: a Dockerfile (`build.dockerfile`, or the legacy top-level `dockerFile`), then a
 * Compose file, then `image`.
 */
export function imageSource(config: Record<string, unknown>): ImageSource | undefined {
  if (typeof config.dockerFile === "string") {
    return { kind: "dockerfile", property: "dockerFile", dockerfile: config.dockerFile };
  }
  if (isObject(config.build) && typeof config.build.dockerfile === "string") {
    return {
      kind: "dockerfile",
      property: "build.dockerfile",
      dockerfile: config.build.dockerfile,
    };
  }
  if (config.dockerComposeFile !== undefined && config.dockerComposeFile !== null) {
    return { kind: "compose", service: text(config.service) };
  }
  const image = text(config.image);
  return image === undefined ? undefined : { kind: "image", image };
}

/**
 * The configuration with the old top-level `extensions`, `settings` and `devPort` moved into
 * `customizations.vscode`, as the Dev Containers CLI does when it reads a file (and so the
 * service, which reports the CLI's merged configuration): old extensions are appended to
 * the new list, and a setting under `customizations.vscode.settings` wins over the old one.
 */
export function withOldVscodeProperties(config: Record<string, unknown>): Record<string, unknown> {
  const { extensions, settings, devPort, ...rest } = config;
  const oldExtensions = Array.isArray(extensions) && extensions.length > 0 ? extensions : undefined;
  const oldSettings = isObject(settings) ? settings : undefined;
  if (oldExtensions === undefined && oldSettings === undefined && devPort === undefined) {
    return config;
  }
  const customizations = isObject(config.customizations) ? config.customizations : {};
  const vscode: Record<string, unknown> = isObject(customizations.vscode)
    ? { ...customizations.vscode }
    : {};
  if (oldExtensions !== undefined) {
    vscode.extensions = [
      ...(Array.isArray(vscode.extensions) ? vscode.extensions : []),
      ...oldExtensions,
    ];
  }
  if (oldSettings !== undefined) {
    vscode.settings = { ...oldSettings, ...(isObject(vscode.settings) ? vscode.settings : {}) };
  }
  if (devPort !== undefined && vscode.devPort === undefined) vscode.devPort = devPort;
  // Keys that were not moved (e.g. a non-list `extensions`) stay where they were.
  const kept = {
    ...(oldExtensions === undefined && extensions !== undefined ? { extensions } : {}),
    ...(oldSettings === undefined && settings !== undefined ? { settings } : {}),
  };
  return { ...rest, ...kept, customizations: { ...customizations, vscode } };
}

/**
 * Properties the workspace does not honour, each with what it does instead. The service
 * reports them as warnings (devcontainer-template.md §12).
 */
const IGNORED_PROPERTIES: Record<string, (value: unknown, folder: string) => string> = {
  shutdownAction: (v) =>
    `shutdownAction ${JSON.stringify(v)} is ignored: the workspace runs until Coder stops it ` +
    "(the user, or the workspace's autostop schedule); closing an editor never stops it.",
  updateRemoteUserUID: (v) =>
    `updateRemoteUserUID ${JSON.stringify(v)} is ignored: the container runs as the uid and gid ` +
    "recorded from the image and the disk is made writable through the pod's fsGroup; no " +
    "uid is changed to match a host user.",
  workspaceMount: (v, folder) => {
    // The template clones into the target the mount names (lib/devcontainer/workspace-folder.ts).
    const target =
      typeof v === "string"
        ? /(?:^|,)\s*(?:target|dst|destination)=([^,]*)/.exec(v)?.[1]?.trim()
        : undefined;
    return (
      `workspaceMount ${JSON.stringify(v)}: its source is ignored, nothing is mounted from a ` +
      "host; the repository is cloned into " +
      (target ? `its target (${target})` : `the workspace folder (${folder})`) +
      " on the workspace's disk."
    );
  },
  appPort: (v) =>
    `appPort ${JSON.stringify(v)} is ignored: a pod publishes no ports; list them in ` +
    "forwardPorts to get an app each (Coder's port forwarding reaches any port).",
};

/** Hook names in the merged configuration (the Dev Containers CLI's plural lists). */
const MERGED_HOOKS: Record<string, string> = {
  onCreateCommand: "onCreateCommands",
  updateContentCommand: "updateContentCommands",
  postCreateCommand: "postCreateCommands",
  postStartCommand: "postStartCommands",
  postAttachCommand: "postAttachCommands",
};

/**
 * 1024-based units of `hostRequirements.memory`/`.storage` strings (e.g. "8gb"), as the Dev
 * Containers CLI reads them when it merges the configuration (imageMetadata.ts parseBytes):
 * whole digits, then nothing or one of these in lowercase. Anything else counts as 0 there.
 */
const SIZE_UNITS: Record<string, number> = {
  "": 1,
  kb: 1024,
  mb: 1024 ** 2,
  gb: 1024 ** 3,
  tb: 1024 ** 4,
};

/** Maps a devcontainer.json object (or `{}` for a repository without one). */
export function deriveMetadata(
  config: Record<string, unknown>,
  options: MetadataAssumptions = {},
): DerivedMetadata {
  config = withOldVscodeProperties(config);
  const warnings: string[] = [];
  const assumptions: string[] = [];
  const run = parseRunArgs(config.runArgs);
  warnings.push(...run.warnings);
  propertyWarnings(config, warnings);
  const unknowns = buildTimeUnknowns(config);
  const user = mapUser(config, options, warnings, assumptions);
  const hr = hostRequirementsObject(config, warnings);
  booleanWarnings(config, warnings);
  const hostRequirements = mapHostRequirements(hr, run, warnings);
  const security = mapSecurityOptions(config, run, warnings);
  const mounts = mapMounts(config.mounts);
  warnings.push(...mounts.warnings);
  const lifecycle = renderLifecycleScripts(config);
  warnings.push(...lifecycle.warnings);
  const ports = forwardPorts(config, warnings);
  const environment = mapEnvironment(config, run, warnings);

  const vscode = customization(config, "vscode");
  return {
    values: {
      id: "preview",
      digest: null,
      configuration_json: JSON.stringify(mergedConfiguration(config)),
      // The label entries the build would write for the file's Features: the template says
      // "not found" for a Feature without one (lib/devcontainer/feature-report.ts).
      metadata_json: JSON.stringify(installedFeatures(config).map((id) => ({ id }))),
      workspace_folder: text(config.workspaceFolder) ?? null,
      remote_user: user.remoteUser ?? null,
      container_user: user.containerUser ?? null,
      runtime: {
        remote_user_uid: user.uid,
        remote_user_gid: user.gid,
        remote_user_home: user.home,
        cap_add: security.capAdd,
        privileged: config.privileged === true || run.privileged,
        init: config.init === true || run.init,
        seccomp_unconfined: security.seccompUnconfined,
        shm_size_bytes: run.shmSizeBytes ?? null,
        hostname: run.hostname ?? null,
        host_aliases: run.hostAliases,
      },
      lifecycle_scripts: lifecycle.scripts,
      env_scripts: environment.envScripts,
      extensions: extensionList(vscode?.extensions),
      settings_json: JSON.stringify(isObject(vscode?.settings) ? vscode.settings : {}),
      host_requirements: hostRequirements,
      forward_ports: ports,
      mounts: mounts.mounts,
      variables: usedVariables(environment.references, {
        runArgs: run.ignored,
        mounts: mounts.ignored,
      }),
      warnings,
    },
    unknowns,
    assumptions,
    hostAliasSources: run.hostAliasSources,
  };
}

/** Properties the workspace does not support or ignores, and strings that are not strings. */
function propertyWarnings(config: Record<string, unknown>, warnings: string[]): void {
  if (config.dockerComposeFile !== undefined) {
    warnings.push("dockerComposeFile is not supported: the workspace is a single container.");
  }
  if (config.overrideCommand === false) {
    warnings.push("overrideCommand: false is not supported: the image's entrypoint does not run.");
  }
  for (const [key, warn] of Object.entries(IGNORED_PROPERTIES)) {
    if (config[key] !== undefined && config[key] !== null) {
      warnings.push(warn(config[key], text(config.workspaceFolder) ?? "/workspaces/<repository>"));
    }
  }

  // Strings the CLI reads as such; another type is not what the file meant.
  for (const key of ["remoteUser", "containerUser", "workspaceFolder"]) {
    if (setButNot(config[key], "string")) {
      warnings.push(`${key} ${JSON.stringify(config[key])} is not a string; it is ignored.`);
    }
  }
}

/**
 * The first-party Features published under ghcr.io/devcontainers/features (the src/ folders of
 * devcontainers/features, December 2026). A first-party id outside it does not exist: the
 * build installs nothing for it.
 */
const FIRST_PARTY_FEATURES = new Set([
  "anaconda",
  "aws-cli",
  "azure-cli",
  "common-utils",
  "conda",
  "copilot-cli",
  "desktop-lite",
  "docker-from-docker",
  "docker-in-docker",
  "docker-outside-of-docker",
  "dotnet",
  "git",
  "git-lfs",
  "github-cli",
  "go",
  "hugo",
  "java",
  "kubectl-helm-minikube",
  "nix",
  "node",
  "nvidia-cuda",
  "oryx",
  "php",
  "powershell",
  "python",
  "ruby",
  "rust",
  "sshd",
  "terraform",
]);
const FIRST_PARTY = /^ghcr\.io\/devcontainers\/features\/([^/:@]+)([:@].*)?$/;

/** The file's Features the build would install: all but first-party ids that do not exist. */
export function installedFeatures(config: Record<string, unknown>): string[] {
  const features = isObject(config.features) ? Object.keys(config.features) : [];
  return features.filter((id) => {
    const name = FIRST_PARTY.exec(id)?.[1];
    return name === undefined || FIRST_PARTY_FEATURES.has(name);
  });
}

/** What the service adds at build time that the file does not say: Features, image metadata. */
function buildTimeUnknowns(config: Record<string, unknown>): string[] {
  const unknowns: string[] = [];
  const features = installedFeatures(config);
  if (features.length > 0) {
    unknowns.push(
      `Features (${features.join(", ")}): installed by the service at build time. Whatever ` +
        "they add (capabilities, privileged, init, mounts, environment, lifecycle commands, " +
        "customizations, a user) is missing here.",
    );
  }
  const source = imageSource(config);
  const base =
    source?.kind === "image"
      ? `the image ${source.image}`
      : source?.kind === "dockerfile"
        ? `the base image of the Dockerfile ${source.dockerfile} (${source.property}; its FROM)`
        : source?.kind === "compose"
          ? `the base image of the Compose service ${source.service ?? "(service not set)"}`
          : undefined;
  if (base !== undefined) {
    unknowns.push(
      `Image metadata: ${base} may carry a devcontainer.metadata label (remoteUser, ` +
        "customizations, hostRequirements, …) and a USER; the service merges them in before this file.",
    );
  }
  return unknowns;
}

/** The user the workspace runs as, its ids and home, with what was assumed for them. */
function mapUser(
  config: Record<string, unknown>,
  options: MetadataAssumptions,
  warnings: string[],
  assumptions: string[],
) {
  const fileRemoteUser = text(config.remoteUser);
  const containerUser = text(config.containerUser);
  const remoteUser = options.remoteUser ?? fileRemoteUser;
  const user = remoteUser ?? containerUser ?? "root";
  if (options.remoteUser !== undefined && options.remoteUserFrom !== undefined) {
    assumptions.push(
      `User: neither remoteUser nor containerUser is set; assumed "${options.remoteUser}" from ${options.remoteUserFrom} (--remote-user sets it).`,
    );
  } else if (options.remoteUser !== undefined) {
    assumptions.push(`User: "${options.remoteUser}", as given with --remote-user.`);
  } else if (remoteUser === undefined && containerUser === undefined) {
    assumptions.push(
      "User: neither remoteUser nor containerUser is set, so the image decides at build time " +
        "(its devcontainer.metadata label's remoteUser, else its USER), which preview cannot " +
        'read; planned as "root" (--remote-user sets it).',
    );
  }
  if (/^\d+$/.test(user)) {
    warnings.push(`remoteUser ${user} is numeric; a user name is needed to find its home and ids.`);
  }
  const uid = options.uid ?? (user === "root" ? 0 : 1000);
  const gid = options.gid ?? uid;
  const home = user === "root" ? "/root" : `/home/${user}`;
  const given = [options.uid !== undefined ? "--uid" : "", options.gid !== undefined ? "--gid" : ""]
    .filter(Boolean)
    .join(" and ");
  assumptions.push(
    given
      ? `uid/gid ${uid}:${gid}, as given with ${given}; home ${home} (the service reads it from the image's /etc/passwd).`
      : `uid/gid and home: the service records them from the image's /etc/passwd; assumed ${uid}:${gid} and ${home} (--uid and --gid set them).`,
  );
  return { remoteUser, containerUser, uid, gid, home };
}

/** `hostRequirements` when it is an object; `{}` otherwise (another type is warned about). */
function hostRequirementsObject(
  config: Record<string, unknown>,
  warnings: string[],
): Record<string, unknown> {
  if (config.hostRequirements != null && !isObject(config.hostRequirements)) {
    warnings.push(
      `hostRequirements ${JSON.stringify(config.hostRequirements)} is not an object; it is ignored.`,
    );
  }
  return isObject(config.hostRequirements) ? config.hostRequirements : {};
}

/** The CLI reads these as booleans: "true" (a string) is not true. */
function booleanWarnings(config: Record<string, unknown>, warnings: string[]): void {
  for (const key of ["privileged", "init", "overrideCommand"]) {
    if (setButNot(config[key], "boolean")) {
      warnings.push(`${key} ${JSON.stringify(config[key])} is not true or false; it is ignored.`);
    }
  }
}

/** The resources asked for: runArgs' --cpus and --memory win over hostRequirements. */
function mapHostRequirements(hr: Record<string, unknown>, run: RunArgsRuntime, warnings: string[]) {
  const cpus = run.cpus ?? numberOrUndefined(hr.cpus);
  if (hr.cpus !== undefined && hr.cpus !== null && numberOrUndefined(hr.cpus) === undefined) {
    // The CLI's merge takes Math.max of the value: NaN, which the configuration holds as null.
    warnings.push(
      `hostRequirements.cpus ${JSON.stringify(hr.cpus)} is not a number of CPUs; it is ignored.`,
    );
  }
  const memory = run.memoryBytes ?? sizeBytes(hr.memory, "hostRequirements.memory", warnings);
  const storage = sizeBytes(hr.storage, "hostRequirements.storage", warnings);
  const gpu = hr.gpu === undefined ? null : JSON.stringify(hr.gpu);
  // Always an object: the plan harness's mock gives a data source attribute that a fixture
  // leaves null its zero value ({cpus: 0, gpu_json: ""}), which would read as a GPU request.
  return {
    cpus: cpus ?? null,
    memory_bytes: memory ?? null,
    storage_bytes: storage ?? null,
    gpu_json: gpu,
  };
}

/** Security options outside runArgs (securityOpt, capAdd), joined with runArgs' own. */
function mapSecurityOptions(
  config: Record<string, unknown>,
  run: RunArgsRuntime,
  warnings: string[],
) {
  const securityOpt = Array.isArray(config.securityOpt) ? config.securityOpt : [];
  let seccompUnconfined = run.seccompUnconfined;
  for (const opt of securityOpt) {
    if (typeof opt === "string" && opt.replace(":", "=") === "seccomp=unconfined")
      seccompUnconfined = true;
    else warnings.push(`securityOpt ${JSON.stringify(opt)} is not supported; it is ignored.`);
  }
  const capAdd = [
    ...(Array.isArray(config.capAdd)
      ? config.capAdd.filter((c): c is string => typeof c === "string")
      : []),
    ...run.capAdd,
  ];
  return { seccompUnconfined, capAdd };
}

/** containerEnv (runArgs' -e first) and remoteEnv as scripts, and the `${…}` references. */
function mapEnvironment(config: Record<string, unknown>, run: RunArgsRuntime, warnings: string[]) {
  const containerEnv = [...run.env, ...envEntries(config.containerEnv, "containerEnv", warnings)];
  const remoteEnv = envEntries(config.remoteEnv, "remoteEnv", warnings);
  const references = findVariableReferences(config);
  warnings.push(...unsettableReferences(references));
  const envScripts: Record<string, string> = {};
  if (containerEnv.length > 0) envScripts.containerEnv = exportLines(containerEnv);
  if (remoteEnv.length > 0) envScripts.remoteEnv = exportLines(remoteEnv);
  return { envScripts, references };
}

/**
 * The `${…}` references of what the workspace uses: a reference only in an entry that is
 * ignored (a runArgs option or a mount the workspace drops, an ignored property) is not
 * listed, so its variable is not demanded.
 */
function usedVariables(
  references: readonly VariableReference[],
  ignoredEntries: Readonly<Record<string, readonly number[]>>,
): VariableReference[] {
  const ignoredPaths = new Set([
    ...Object.keys(IGNORED_PROPERTIES),
    ...Object.entries(ignoredEntries).flatMap(([key, indexes]) =>
      indexes.map((i) => `${key}[${i}]`),
    ),
  ]);
  // A path is ignored when it or its property (`mounts[3]` of `mounts[3].source`, or
  // `workspaceMount`) is: looked up in a set, not compared with every ignored path.
  const ignored = (path: string) => {
    const entry = /^[^.[]*(\[\d+\])?/.exec(path)?.[0] ?? path;
    const property = /^[^.[]*/.exec(path)?.[0] ?? path;
    return ignoredPaths.has(entry) || ignoredPaths.has(property);
  };
  return references
    .filter(settable)
    .map((ref) => ({ ...ref, used_in: ref.used_in.filter((path) => !ignored(path)) }))
    .filter((ref) => ref.used_in.length > 0);
}

/** The Dev Containers CLI's merged form with this file as the only contributor. */
function mergedConfiguration(config: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    if (key === "customizations" && isObject(value)) {
      merged.customizations = Object.fromEntries(
        Object.entries(value).map(([tool, v]) => [tool, [v]]),
      );
    } else if (MERGED_HOOKS[key] !== undefined) {
      merged[MERGED_HOOKS[key]] = [value];
    } else {
      merged[key] = value;
    }
  }
  return merged;
}

function forwardPorts(
  config: Record<string, unknown>,
  warnings: string[],
): Record<string, unknown>[] {
  const list = mergedForwardPorts(Array.isArray(config.forwardPorts) ? config.forwardPorts : []);
  const attributes = isObject(config.portsAttributes) ? config.portsAttributes : {};
  const ports: Record<string, unknown>[] = [];
  for (const entry of list) {
    const port =
      typeof entry === "number"
        ? entry
        : typeof entry === "string" && /^\d+$/.test(entry)
          ? Number(entry)
          : undefined;
    if (port === undefined || !Number.isInteger(port) || port < 1 || port > 65535) {
      warnings.push(
        `forwardPorts ${JSON.stringify(entry)} is not a port of the workspace container; it is ignored.`,
      );
      continue;
    }
    const attrs = isObject(attributes[String(port)])
      ? (attributes[String(port)] as Record<string, unknown>)
      : {};
    for (const field of ["label", "protocol", "onAutoForward"]) {
      if (setButNot(attrs[field], "string")) {
        warnings.push(
          `portsAttributes["${port}"].${field} ${JSON.stringify(attrs[field])} is not a string; it is ignored.`,
        );
      }
    }
    ports.push({
      port,
      label: text(attrs.label) ?? null,
      protocol: text(attrs.protocol) ?? null,
      on_auto_forward: text(attrs.onAutoForward) ?? null,
    });
  }
  return ports;
}

/**
 * forwardPorts as the Dev Containers CLI merges them into the configuration the service
 * reads: a port and `localhost:<port>` are one entry, each entry is listed once, in the place
 * it first appears, and `localhost:<port>` becomes the number.
 */
function mergedForwardPorts(list: readonly unknown[]): unknown[] {
  const seen = new Set<string>();
  const merged: unknown[] = [];
  for (const entry of list) {
    const key = typeof entry === "number" ? `localhost:${entry}` : entry;
    if (typeof key === "string") {
      if (seen.has(key)) continue;
      seen.add(key);
    }
    const local = typeof entry === "string" ? /^localhost:(\d+)$/.exec(entry) : null;
    merged.push(local ? Number(local[1]) : entry);
  }
  return merged;
}

/**
 * `customizations.vscode.extensions` in order, first spelling kept; `-id` removes an earlier
 * entry. One map keyed by the lower-case ID (a Map keeps insertion order, and an ID added
 * again after its removal goes last, as a push would): searching the list for every entry
 * made a list of n extensions cost n² (60,000 took 70 s).
 */
function extensionList(value: unknown): string[] {
  const kept = new Map<string, string>();
  for (const id of Array.isArray(value) ? value : []) {
    if (typeof id !== "string" || id === "") continue;
    if (id.startsWith("-")) kept.delete(id.slice(1).toLowerCase());
    else if (!kept.has(id.toLowerCase())) kept.set(id.toLowerCase(), id);
  }
  return [...kept.values()];
}

function customization(
  config: Record<string, unknown>,
  tool: string,
): Record<string, unknown> | undefined {
  const all = isObject(config.customizations) ? config.customizations : {};
  return isObject(all[tool]) ? (all[tool] as Record<string, unknown>) : undefined;
}

/**
 * The entries of containerEnv or remoteEnv that become `export K="…"` lines, every key as
 * written, as the service renders them (a key that is no shell variable name makes the pod's
 * wrapper skip the whole script, which the report's notes say). A value must be a string
 * (remoteEnv's null, which the Dev Containers CLI reads as "unset", has no export line: the
 * variable stays as the image has it).
 */
function envEntries(value: unknown, field: string, warnings: string[]): [string, string][] {
  if (value === undefined || value === null) return [];
  if (!isObject(value)) {
    warnings.push(`${field} ${JSON.stringify(value)} is not an object; it is ignored.`);
    return [];
  }
  return Object.entries(value).flatMap(([k, v]): [string, string][] => {
    if (typeof v === "string") return [[k, v]];
    warnings.push(
      v === null
        ? `${field} ${k} is null: the workspace does not unset it, it keeps the image's value.`
        : `${field} ${k} is ${JSON.stringify(v)}, not a string; it is not set.`,
    );
    return [];
  });
}

/** Whether the workspace can set the variable: `${localEnv:A-B}` names none a shell can have. */
function settable(ref: VariableReference): boolean {
  return ref.kind === "context" || isReferenceName(ref.name);
}

/** The references no shell variable can hold: the workspace uses their default. */
function unsettableReferences(references: readonly VariableReference[]): string[] {
  return references
    .filter((ref) => !settable(ref))
    .map(
      (ref) =>
        `\${${ref.kind}:${ref.name}} names no shell variable, so the workspace cannot set it; ` +
        `it becomes ${ref.default === null ? "empty" : `its default ${JSON.stringify(ref.default)}`}.`,
    );
}

/** `export K="…"` lines: literal text escaped, references expandable. */
function exportLines(entries: readonly (readonly [string, string])[]): string {
  return entries.map(([k, v]) => `export ${k}="${doubleQuotedBody(v)}"`).join("\n");
}

function sizeBytes(value: unknown, where: string, warnings: string[]): number | undefined {
  if (value === undefined || value === null) return undefined;
  const m =
    typeof value === "string" || typeof value === "number"
      ? /^(\d+)(kb|mb|gb|tb)?$/.exec(String(value))
      : null;
  if (m === null) {
    warnings.push(
      `${where} ${JSON.stringify(value)} is not a size the Dev Containers CLI reads (whole digits, ` +
        "optionally followed by kb, mb, gb or tb in lowercase); it is ignored.",
    );
    return undefined;
  }
  return Number(m[1]) * SIZE_UNITS[m[2] ?? ""];
}

/** Set (not absent, not null) to a value of another type than `type`. */
function setButNot(value: unknown, type: "string" | "boolean"): boolean {
  return value !== undefined && value !== null && typeof value !== type;
}

function numberOrUndefined(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && /^\d+(\.\d+)?$/.test(value)) return Number(value);
  return undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

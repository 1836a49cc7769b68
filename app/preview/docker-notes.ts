/**
 * What preview says about a repository built for Docker, beyond the build log's one line each
 * (lib/devcontainer/docker-warnings.ts): which services of its Compose file(s) will not run,
 * with their volumes and environment, and which service's image the workspace is; and which
 * Docker Features cannot work, with the lifecycle commands that call `docker`. Compose files
 * are read from the repository (YAML, at most {@link MAX_DEVCONTAINER_FILE_BYTES}); a file not
 * in the repository fails the build.
 */
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parse } from "yaml";
import {
  CALLS_DOCKER_PATTERN,
  SHELL_COMMENT_PATTERN,
  DOCKER_FEATURE_PATTERN,
} from "../../lib/devcontainer/docker-warnings";
import { displayPath, isWithin, MAX_DEVCONTAINER_FILE_BYTES } from "./devcontainer-file";
import { substituteFolderVariables, type FolderVariables } from "./folder-variables";

/** The lifecycle hooks of devcontainer.json, in the order they run. */
const HOOKS = [
  "initializeCommand",
  "onCreateCommand",
  "updateContentCommand",
  "postCreateCommand",
  "postStartCommand",
  "postAttachCommand",
];

/** One service of a Compose file, as far as the notes tell it. */
interface ComposeService {
  readonly name: string;
  readonly image?: string;
  readonly build: boolean;
  readonly volumes: readonly string[];
  readonly environment: readonly string[];
  /** Its runtime settings the workspace does not apply (`cap_add [SYS_PTRACE]`, ...). */
  readonly runtime: Readonly<Record<string, string>>;
}

/** Compose runtime settings a workspace does not take from the file, and their counterpart. */
const COMPOSE_RUNTIME_KEYS: Readonly<Record<string, string>> = {
  cap_add: "capAdd",
  shm_size: 'runArgs ["--shm-size=<size>"]',
  security_opt: "securityOpt",
};

/**
 * Notes for `config` (a devcontainer.json object read from `file`): its Compose services and
 * its Docker Features. `folders` are the CLI's folder variables' values.
 */
export function dockerNotes(
  config: Record<string, unknown>,
  file: string | null,
  folders: FolderVariables,
): string[] {
  return [...composeNotes(config, file, folders), ...dockerFeatureNotes(config)];
}

function composeNotes(
  config: Record<string, unknown>,
  file: string | null,
  folders: FolderVariables,
): string[] {
  const given = config.dockerComposeFile;
  if (given === undefined || given === null || file === null) return [];
  const names = (Array.isArray(given) ? given : [given]).filter(
    (f): f is string => typeof f === "string" && f !== "",
  );
  const notes: string[] = [];
  const services = new Map<string, ComposeService>();
  const read: string[] = [];
  for (const name of names) {
    const path = resolve(dirname(resolve(file)), substituteFolderVariables(name, folders));
    const problem = composeFileProblem(path, folders.localWorkspaceFolder);
    if (problem !== undefined) {
      notes.push(
        `dockerComposeFile ${JSON.stringify(name)} (${displayPath(path)}) ${problem}: the image ` +
          "build fails and the workspace never starts.",
      );
      continue;
    }
    let document: unknown;
    try {
      document = parse(readFileSync(path, "utf8"), { maxAliasCount: 100 });
    } catch (error) {
      notes.push(
        `dockerComposeFile ${JSON.stringify(name)} is not YAML preview can read ` +
          `(${(error as Error).message.split("\n")[0]}); its services are not listed here.`,
      );
      continue;
    }
    read.push(name);
    const found = isObject(document) && isObject(document.services) ? document.services : {};
    for (const [service, value] of Object.entries(found)) {
      // A later file overrides an earlier one's service, as Compose merges them.
      services.set(service, mergedService(services.get(service), service, value));
    }
  }
  if (read.length === 0) return notes;
  const workspace = typeof config.service === "string" ? config.service : undefined;
  const own = workspace === undefined ? undefined : services.get(workspace);
  const others = [...services.values()].filter((s) => s.name !== workspace);
  const files = read.map((f) => JSON.stringify(f)).join(", ");
  notes.push(
    (workspace === undefined
      ? `devcontainer.json names no Compose service, so the build fails (the Dev Containers CLI needs "service"). `
      : own === undefined
        ? `The Compose service ${JSON.stringify(workspace)} is not in ${files}: the build fails. `
        : `The workspace is one container: the image of the Compose service ${JSON.stringify(workspace)} ` +
          `(${describeImage(own)}), run as a pod, without what Compose would give it` +
          (own.volumes.length + own.environment.length > 0 ? ` (${describeExtras(own)})` : "") +
          ". " +
          runtimeNote(own)) +
      (others.length === 0
        ? `${files} defines no other service.`
        : `These services of ${files} do not run, so nothing the workspace expects from them ` +
          `(a database, a cache) is there: ${others
            .map(
              (s) =>
                `${s.name} (${[describeImage(s), describeExtras(s)].filter(Boolean).join("; ")})`,
            )
            .join(", ")}. Run them elsewhere and point the workspace at them.`),
  );
  return notes;
}

/** The workspace service's runtime settings that are not applied, with what to write instead. */
function runtimeNote(own: ComposeService): string {
  const keys = Object.keys(own.runtime);
  if (keys.length === 0) return "";
  return (
    `Its ${keys.map((key) => `${key} ${own.runtime[key]}`).join(", ")} ` +
    `${keys.length === 1 ? "is" : "are"} not applied (the workspace reads devcontainer.json, ` +
    `not the Compose file): set ${keys.map((key) => COMPOSE_RUNTIME_KEYS[key]).join(", ")} in ` +
    "devcontainer.json instead, which the workspace maps onto the pod. "
  );
}

/** Why the Compose file at `path` is not in the service's clone, or undefined. */
function composeFileProblem(path: string, repository: string): string | undefined {
  if (!isWithin(path, repository)) return "lies outside the repository";
  if (!existsSync(path)) return "is not in the repository";
  const real = realpathSync(path);
  if (!isWithin(real, realpathSync(repository))) return "is a link out of the repository";
  const stat = statSync(real);
  if (!stat.isFile()) return "is not a file";
  if (stat.size > MAX_DEVCONTAINER_FILE_BYTES) {
    return `is ${stat.size} bytes, more than preview reads (${MAX_DEVCONTAINER_FILE_BYTES})`;
  }
  return undefined;
}

function mergedService(
  earlier: ComposeService | undefined,
  name: string,
  value: unknown,
): ComposeService {
  const s = isObject(value) ? value : {};
  const volumes = (Array.isArray(s.volumes) ? s.volumes : []).map((v) =>
    typeof v === "string"
      ? v
      : isObject(v)
        ? `${String(v.source ?? "")}:${String(v.target ?? "")}`.replace(/^:/, "")
        : JSON.stringify(v),
  );
  const environment = Array.isArray(s.environment)
    ? s.environment.map((e) => String(e).split("=")[0])
    : isObject(s.environment)
      ? Object.keys(s.environment)
      : [];
  return {
    name,
    image: typeof s.image === "string" ? s.image : earlier?.image,
    build: s.build !== undefined || earlier?.build === true,
    volumes: [...new Set([...(earlier?.volumes ?? []), ...volumes])],
    environment: [...new Set([...(earlier?.environment ?? []), ...environment])],
    runtime: {
      ...earlier?.runtime,
      ...Object.fromEntries(
        Object.keys(COMPOSE_RUNTIME_KEYS)
          .filter((key) => s[key] !== undefined && s[key] !== null)
          .map((key) => [key, JSON.stringify(s[key])]),
      ),
    },
  };
}

function describeImage(s: ComposeService): string {
  return s.build
    ? `built from its build section${s.image ? `, tagged ${s.image}` : ""}`
    : s.image
      ? `image ${s.image}`
      : "no image";
}

/** Volumes and environment names (never values: they may be secrets). */
function describeExtras(s: ComposeService): string {
  return [
    s.volumes.length > 0 ? `volumes ${s.volumes.join(", ")}` : "",
    s.environment.length > 0 ? `environment ${s.environment.join(", ")}` : "",
  ]
    .filter(Boolean)
    .join("; ");
}

function dockerFeatureNotes(config: Record<string, unknown>): string[] {
  const features = isObject(config.features) ? Object.keys(config.features) : [];
  const docker = features.filter((id) => new RegExp(DOCKER_FEATURE_PATTERN).test(id));
  if (docker.length === 0) return [];
  const calls = new RegExp(CALLS_DOCKER_PATTERN);
  const comments = new RegExp(SHELL_COMMENT_PATTERN, "g");
  const hooks = HOOKS.filter((hook) =>
    calls.test(commandText(config[hook]).replace(comments, "$1")),
  );
  return [
    `docker will not be available in this workspace: ${docker.join(", ")} need a privileged ` +
      "container with a root entrypoint (docker-in-docker) or the host's Docker socket " +
      "(docker-outside-of-docker); the workspace has no host and starts Feature entrypoints " +
      "as the remote user (root only through sudo, privileged only with allow_privileged). " +
      (hooks.length > 0
        ? `These lifecycle commands call docker and will fail: ${hooks.join(", ")}.`
        : "No lifecycle command calls docker."),
  ];
}

/** The words of a lifecycle command (a string, an argv list, or an object of them). */
function commandText(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(commandText).join(" ");
  if (isObject(value)) return Object.values(value).map(commandText).join("\n");
  return "";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * What a platform engineer should know about a repository's workspace that is neither a
 * build-log warning nor a number: settings that work, but not as the Dev Containers spec
 * describes them, and variables a repository expects to be empty on most machines.
 */
import type { SkippedEnvScript } from "./workspace-report";

/**
 * Host-session variables: set by a desktop, WSL or an SSH agent on some developers'
 * machines and empty on the others, so a repository that reads them copes with empty.
 */
export const HOST_SESSION_VARIABLES: ReadonlySet<string> = new Set([
  "WSLENV",
  "WSL_DISTRO_NAME",
  "WSL_INTEROP",
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "XAUTHORITY",
  "XDG_RUNTIME_DIR",
  "PULSE_SERVER",
  "DBUS_SESSION_BUS_ADDRESS",
  "SSH_AUTH_SOCK",
  "TERM_PROGRAM",
  "COLORTERM",
]);

/** Notes about how the workspace treats `config` (a devcontainer.json object). */
export function workspaceNotes(config: Record<string, unknown>): string[] {
  const notes: string[] = [];
  if (config.initializeCommand !== undefined && config.initializeCommand !== null) {
    notes.push(
      "initializeCommand runs inside the workspace's container on every start, before login " +
        "(the Dev Containers spec runs it on the host before the container is created), from " +
        "the workspace's clone of the repository, which ${localWorkspaceFolder} names there: a " +
        "command that needs the host (docker, files outside the repository) fails the " +
        "login-blocking start.",
    );
  }
  const buildFolder = buildLocalFolderNote(config);
  if (buildFolder !== undefined) notes.push(buildFolder);
  const entrypoints = entrypointFeatureNote(config);
  if (entrypoints !== undefined) notes.push(entrypoints);
  const server = serverInPostAttachNote(config);
  if (server !== undefined) notes.push(server);
  const probe = userEnvProbeNote(config);
  if (probe !== undefined) notes.push(probe);
  notes.push(...ignoredKeyNotes(config));
  const buildOnly = buildArgsVariables(config);
  if (buildOnly.length > 0) {
    notes.push(
      `build.args use ${buildOnly.map((n) => `\${localEnv:${n}}`).join(", ")}: the image is built ` +
        "by devcontainer-builder, which never sees the workspace's Dev Container variables, so " +
        "no value set for the workspace reaches the build; each gets its default, or an empty " +
        "string. Give the build its values in build.args themselves, or in the Dockerfile.",
    );
  }
  const hr = config.hostRequirements;
  if (typeof hr === "object" && hr !== null && (hr as Record<string, unknown>).gpu === "optional") {
    notes.push(
      'hostRequirements.gpu "optional": the workspace asks for no GPU and gets none (true, or ' +
        "an object with cores or memory, asks for one).",
    );
  }
  return notes;
}

/** The note for an env script the workspace's start skips (WorkspaceReport.skippedEnvScripts). */
export function skippedEnvScriptNote(script: SkippedEnvScript): string {
  const names = script.refusedNames.map((name) => JSON.stringify(name)).join(", ");
  return (
    `${script.kind} ${names}: not shell variable names (letters, digits and _, not starting ` +
    `with a digit). If the service writes them into its ${script.kind} export script, the ` +
    "workspace's start cannot export them and skips that whole script (the container log " +
    `names them): none of ${script.kind} is set.`
  );
}

/** First-party Features whose metadata names an entrypoint script. */
const ENTRYPOINT_FEATURE =
  /^ghcr\.io\/devcontainers\/features\/(desktop-lite|docker-in-docker|sshd)(:|@|$)/;

/** The note for Features whose entrypoint the workspace starts before the hooks. */
function entrypointFeatureNote(config: Record<string, unknown>): string | undefined {
  const features = isObject(config.features) ? Object.keys(config.features) : [];
  const named = features.filter((id) => ENTRYPOINT_FEATURE.test(id));
  if (named.length === 0) return undefined;
  return (
    `${named.join(", ")}: each has an entrypoint (in its devcontainer.metadata label entry), ` +
    "which the workspace starts on every start in the background, as the remote user, before " +
    "the agent and the hooks, with its log in ~/.cache/devcontainer-features/; the container " +
    "log names any that could not start and why. Other Features' entrypoints, if the image " +
    "records any, start the same way."
  );
}

/** Commands that start a server and keep running (a dev server, a notebook). */
const SERVER_COMMAND =
  /\b(runserver|manage\.py\s+run|(npm|pnpm|yarn|bun)\s+(run\s+)?(start|dev|serve)|rails\s+s(erver)?|flask\s+run|uvicorn|gunicorn|jupyter\s+(lab|notebook)|http-server|hugo\s+server|jekyll\s+serve)\b/;

/** The note for a postAttachCommand that starts a server (docs/templates/devcontainer.md). */
function serverInPostAttachNote(config: Record<string, unknown>): string | undefined {
  const command = config.postAttachCommand;
  const text =
    typeof command === "string"
      ? command
      : Array.isArray(command)
        ? command.join(" ")
        : isObject(command)
          ? Object.values(command).map(String).join("\n")
          : "";
  if (!SERVER_COMMAND.test(text)) return undefined;
  return config.waitFor === "postAttachCommand"
    ? "postAttachCommand starts a server, and waitFor names it: login waits for postAttachCommand " +
        "to end, which a server never does, so the login waits until the lifecycle timeout. " +
        "Drop waitFor, or start the server in the background (`nohup ... &`)."
    : "postAttachCommand starts a server: as in the Dev Containers CLI it runs in the " +
        "background and keeps running; login does not wait for it (it starts once the " +
        "login-blocking commands succeeded, once per start), and the workspace page shows " +
        "its script as running while the server runs.";
}

/** What the shells a userEnvProbe value names read, in the words of their startup files. */
const PROBE_SHELLS: Readonly<Record<string, string>> = {
  loginShell: "a login shell (~/.profile, not the interactive part of ~/.bashrc)",
  interactiveShell: "an interactive shell (~/.bashrc, not ~/.profile)",
  loginInteractiveShell: "a login interactive shell (~/.profile and ~/.bashrc)",
};

/** The note for a userEnvProbe the file sets (a bad value is a build-log warning). */
function userEnvProbeNote(config: Record<string, unknown>): string | undefined {
  const probe = config.userEnvProbe;
  if (probe === "none") {
    return (
      "userEnvProbe none: the hooks, terminals and apps get the container's environment " +
      "(containerEnv, remoteEnv) only; PATH entries that ~/.profile or ~/.bashrc add (nvm, " +
      "sdkman, conda, rustup) are not seen."
    );
  }
  if (typeof probe !== "string" || PROBE_SHELLS[probe] === undefined) return undefined;
  return (
    `userEnvProbe ${probe}: on every start, before the agent starts, the workspace runs the ` +
    `remote user's login shell once as ${PROBE_SHELLS[probe]}, for at most 10 seconds, and ` +
    "every hook, terminal and app gets what it exports (remoteEnv is applied after it)."
  );
}

/** Keys of customizations.vscode the template reads (the CLI moves devPort there too). */
const VSCODE_KEYS = new Set(["extensions", "settings", "devPort"]);

/** Keys devcontainer.json may have that the template ignores without a build-log warning. */
function ignoredKeyNotes(config: Record<string, unknown>): string[] {
  const notes: string[] = [];
  if (isObject(config.secrets) && Object.keys(config.secrets).length > 0) {
    notes.push(
      `secrets (${Object.keys(config.secrets).join(", ")}): ignored. Codespaces asks for these ` +
        "when it creates a codespace; here a workspace user sets them as NAME=value lines in " +
        "the Dev Container variables setting, where ${localEnv:NAME} reads them.",
    );
  }
  const ports = Array.isArray(config.forwardPorts) ? config.forwardPorts.map(String) : [];
  if (isObject(config.portsAttributes)) {
    const unforwarded = Object.keys(config.portsAttributes).filter(
      (port) => !ports.includes(port) && !ports.includes(`localhost:${port}`),
    );
    if (unforwarded.length > 0) {
      notes.push(
        `portsAttributes ${unforwarded.join(", ")}: no app, since forwardPorts does not list ` +
          "them (VS Code applies them to ports it detects; the workspace makes apps only of " +
          "forwardPorts). Coder's port forwarding still reaches any port.",
      );
    }
  }
  const customizations = isObject(config.customizations) ? config.customizations : {};
  const vscode = isObject(customizations.vscode) ? customizations.vscode : {};
  const unknown = Object.keys(vscode).filter((key) => !VSCODE_KEYS.has(key));
  if (unknown.length > 0) {
    notes.push(
      `customizations.vscode ${unknown.join(", ")}: ignored; the workspace applies only ` +
        "extensions and settings.",
    );
  }
  return notes;
}

/** The note for build.args or build.context naming ${localWorkspaceFolder}. */
function buildLocalFolderNote(config: Record<string, unknown>): string | undefined {
  const build = isObject(config.build) ? config.build : {};
  const keys = ["args", "context"].filter((key) =>
    /\$\{localWorkspaceFolder(Basename)?\}/.test(JSON.stringify(build[key] ?? "")),
  );
  if (keys.length === 0) return undefined;
  return (
    `build.${keys.join(" and build.")} use \${localWorkspaceFolder}: devcontainer-builder ` +
    "resolves it to its own clone of the repository (the repository's root, as the Dev " +
    "Containers CLI does on the host), not to the workspace folder; in the workspace's mounts " +
    "and initializeCommand it is the workspace's clone."
  );
}

/** localEnv names used only under build.args (no value of the workspace reaches them). */
function buildArgsVariables(config: Record<string, unknown>): string[] {
  const build = isObject(config.build) ? config.build : {};
  const args = isObject(build.args) ? JSON.stringify(build.args) : "";
  const rest = JSON.stringify({ ...config, build: { ...build, args: undefined } });
  const names = [...args.matchAll(/\$\{localEnv:([A-Za-z_][A-Za-z0-9_]*)(?::[^}]*)?\}/g)].map(
    (m) => m[1],
  );
  return [...new Set(names)].filter((name) => !rest.includes(`\${localEnv:${name}`));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

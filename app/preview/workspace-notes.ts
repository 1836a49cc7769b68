/**
 * What a platform engineer should know about a repository's workspace that is neither a
 * build-log warning nor a number: settings that work, but not as the Dev Containers spec
 * describes them, and variables a repository expects to be empty on most machines.
 */
import { VARIABLE_NAME_PATTERN } from "../../src/devcontainer/warnings";
import { parseRunArgs } from "./run-args";

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
        "(the Dev Containers spec runs it on the host before the container is created): a " +
        "command that needs the host (docker, files at ${localWorkspaceFolder} on the host's " +
        "disk) fails the login-blocking start.",
    );
  }
  // runArgs' `-e K=V` come first in the containerEnv script, as the service renders it.
  const runArgsEnv = Object.fromEntries(parseRunArgs(config.runArgs).env);
  for (const kind of ["containerEnv", "remoteEnv"] as const) {
    const entries = kind === "containerEnv" ? [runArgsEnv, config[kind]] : [config[kind]];
    const refused = [...new Set(entries.flatMap(refusedEnvNames))];
    if (refused.length > 0) {
      notes.push(
        `${kind} ${refused.map((name) => JSON.stringify(name)).join(", ")}: not shell ` +
          "variable names (letters, digits and _, not starting with a digit). If the service " +
          `writes them into its ${kind} export script, the workspace's start cannot export ` +
          `them and skips that whole script (the container log names them): none of ${kind} ` +
          "is set.",
      );
    }
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

/** What the `dev` wrapper can export: the shell's variable names (the template's own rule). */
export const SHELL_VARIABLE_NAME = new RegExp(VARIABLE_NAME_PATTERN);

/** The keys of a containerEnv / remoteEnv object with a string value that no shell can export. */
function refusedEnvNames(env: unknown): string[] {
  if (typeof env !== "object" || env === null || Array.isArray(env)) return [];
  return Object.entries(env)
    .filter(([name, value]) => typeof value === "string" && !SHELL_VARIABLE_NAME.test(name))
    .map(([name]) => name);
}

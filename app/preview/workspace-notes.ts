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
        "(the Dev Containers spec runs it on the host before the container is created): a " +
        "command that needs the host (docker, files at ${localWorkspaceFolder} on the host's " +
        "disk) fails the login-blocking start.",
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

/**
 * The Dev Containers CLI's folder variables, which it substitutes across the whole
 * configuration before it resolves any path (devcontainers/spec): `${localWorkspaceFolder}`
 * is where the repository is on the machine that runs the tools (for preview, the folder
 * previewed; for the service, its clone), `${containerWorkspaceFolder}` the workspace folder,
 * and the `…Basename` forms their last segments.
 */
import { basename } from "node:path";

/** The values of the folder variables for one preview. */
export interface FolderVariables {
  /** The repository's folder on this machine. */
  readonly localWorkspaceFolder: string;
  /** The workspace folder in the container (the template's). */
  readonly containerWorkspaceFolder: string;
}

/** `text` with every folder variable replaced by its value, as the CLI does. */
export function substituteFolderVariables(text: string, values: FolderVariables): string {
  const byName: Record<string, string> = {
    localWorkspaceFolder: values.localWorkspaceFolder,
    localWorkspaceFolderBasename: basename(values.localWorkspaceFolder),
    containerWorkspaceFolder: values.containerWorkspaceFolder,
    containerWorkspaceFolderBasename: basename(values.containerWorkspaceFolder),
  };
  return text.replace(
    /\$\{(localWorkspaceFolder|localWorkspaceFolderBasename|containerWorkspaceFolder|containerWorkspaceFolderBasename)\}/g,
    (_, name: string) => byName[name],
  );
}

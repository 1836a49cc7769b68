/** What preview says about a Dockerfile the devcontainer.json names (never read here). */
import { existsSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { displayPath, isWithin, type DevcontainerFile } from "./devcontainer-file";
import { imageSource } from "./devcontainer-metadata";
import { substituteFolderVariables } from "./folder-variables";

/**
 * A Dockerfile the service could not find in its clone: missing, no file, or outside the
 * repository (`../../etc/passwd`). Its path is relative to the devcontainer.json, as the Dev
 * Containers CLI reads it, after the CLI's folder variables are substituted
 * (`${localWorkspaceFolder}/.devcontainer/Dockerfile`); `workspaceFolder` is the workspace
 * folder the template planned. Preview never reads the file.
 */
export function dockerfileNotes(
  found: DevcontainerFile,
  config: Record<string, unknown>,
  repository: string,
  workspaceFolder: string = `/workspaces/${basename(repository)}`,
): string[] {
  const source = imageSource(config);
  if (found.kind !== "config" || source?.kind !== "dockerfile") return [];
  const notes = contextNotes(found.file, config, repository, workspaceFolder);
  const dockerfile = substituteFolderVariables(source.dockerfile, {
    localWorkspaceFolder: repository,
    containerWorkspaceFolder: workspaceFolder,
  });
  const path = resolve(dirname(resolve(found.file)), dockerfile);
  const what = !isWithin(path, repository)
    ? "lies outside the repository, so the service's clone has no such file"
    : !existsSync(path)
      ? "is not in the repository"
      : !statSync(path).isFile()
        ? "is not a file"
        : undefined;
  return what === undefined
    ? notes
    : [
        `${source.property} ${JSON.stringify(source.dockerfile)} (${displayPath(path)}) ${what}: ` +
          "the image build fails and the workspace never starts.",
        ...notes,
      ];
}

/**
 * A build.context outside the repository (`../..`): the Dev Containers CLI sends a folder of
 * the host, but devcontainer-builder has only its clone of the repository.
 */
function contextNotes(
  file: string,
  config: Record<string, unknown>,
  repository: string,
  workspaceFolder: string,
): string[] {
  const build = config.build;
  if (typeof build !== "object" || build === null) return [];
  const context = (build as Record<string, unknown>).context;
  if (typeof context !== "string") return [];
  const path = resolve(
    dirname(resolve(file)),
    substituteFolderVariables(context, {
      localWorkspaceFolder: repository,
      containerWorkspaceFolder: workspaceFolder,
    }),
  );
  if (isWithin(path, repository)) return [];
  return [
    `build.context ${JSON.stringify(context)} (${displayPath(path)}) lies outside the ` +
      "repository: devcontainer-builder builds from its clone of the repository, which has " +
      "nothing outside it (the Dev Containers CLI would send that folder of your machine), so " +
      "the image build fails or misses those files. Keep the context inside the repository.",
  ];
}

/**
 * The user a repository's workspace runs as when devcontainer.json sets neither remoteUser
 * nor containerUser: the service reports the image's metadata label's remoteUser, else the
 * image's USER. Preview cannot read the image, so it reads what it can: a local Dockerfile's
 * last `USER` after its last `FROM`, else the base image, looked up among common images whose
 * metadata names a user. Every answer is labelled as assumed.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { isWithin, MAX_DEVCONTAINER_FILE_BYTES } from "./devcontainer-file";
import { imageSource } from "./devcontainer-metadata";
import { substituteFolderVariables, type FolderVariables } from "./folder-variables";

/**
 * Images whose published devcontainer.metadata label (or USER) names their user, by reference
 * prefix, one image family each: the Dev Containers project's images (mcr.microsoft.com/
 * devcontainers/*, and the older mcr.microsoft.com/vscode/devcontainers/*) set `remoteUser`
 * `vscode`, except javascript-node and typescript-node (`node`) and universal (`codespace`);
 * Coder's enterprise images run as USER `coder`. Any other image, a family of those registries
 * not listed included, is not guessed: the user is decided at build time, and preview says so.
 */
const VSCODE_FAMILIES = [
  "base",
  "python",
  "go",
  "rust",
  "java",
  "dotnet",
  "cpp",
  "php",
  "ruby",
  "miniconda",
  "anaconda",
];
const KNOWN_IMAGE_USERS: readonly (readonly [prefix: string, user: string])[] = [
  ...["mcr.microsoft.com/devcontainers/", "mcr.microsoft.com/vscode/devcontainers/"].flatMap(
    (registry) => [
      ...VSCODE_FAMILIES.map((family) => [`${registry}${family}:`, "vscode"] as const),
      ...VSCODE_FAMILIES.map((family) => [`${registry}${family}@`, "vscode"] as const),
      ...["javascript-node", "typescript-node"].flatMap((family) => [
        [`${registry}${family}:`, "node"] as const,
        [`${registry}${family}@`, "node"] as const,
      ]),
      [`${registry}universal:`, "codespace"] as const,
      [`${registry}universal@`, "codespace"] as const,
    ],
  ),
  ["codercom/enterprise-", "coder"],
];

/** The user and where preview took it from, or undefined (decided at build time). */
export interface InferredUser {
  readonly user: string;
  readonly from: string;
}

/** The user of an image reference, from {@link KNOWN_IMAGE_USERS} (a bare name is `:latest`). */
export function knownImageUser(image: string): string | undefined {
  const reference = /[:@]/.test(image.slice(image.lastIndexOf("/") + 1)) ? image : `${image}:`;
  return KNOWN_IMAGE_USERS.find(([prefix]) => reference.startsWith(prefix))?.[1];
}

/**
 * The user the image gives `config` (a devcontainer.json object read from `file`), when the
 * file sets none; undefined when it sets one or nothing is known.
 */
export function inferImageUser(
  config: Record<string, unknown>,
  file: string | null,
  folders: FolderVariables,
): InferredUser | undefined {
  if (typeof config.remoteUser === "string" || typeof config.containerUser === "string") {
    return undefined;
  }
  const source = imageSource(config);
  if (source?.kind === "image") {
    const user = knownImageUser(source.image);
    return user === undefined
      ? undefined
      : { user, from: `the metadata of ${source.image}, as that image family sets it` };
  }
  if (source?.kind !== "dockerfile" || file === null) return undefined;
  const path = resolve(
    dirname(resolve(file)),
    substituteFolderVariables(source.dockerfile, folders),
  );
  if (!isWithin(path, folders.localWorkspaceFolder) || !existsSync(path)) return undefined;
  const stat = statSync(path);
  if (!stat.isFile() || stat.size > MAX_DEVCONTAINER_FILE_BYTES) return undefined;
  const stage = lastStage(readFileSync(path, "utf8"));
  if (stage === undefined) return undefined;
  if (stage.user !== undefined && !stage.user.includes("$")) {
    return { user: stage.user, from: `the Dockerfile's last USER (${source.dockerfile})` };
  }
  const user = knownImageUser(stage.from);
  return user === undefined
    ? undefined
    : {
        user,
        from: `the metadata of the Dockerfile's base image ${stage.from}, as that image family sets it`,
      };
}

/** The last stage's FROM image and its last USER (a name, without `:group`). */
function lastStage(text: string): { from: string; user?: string } | undefined {
  let from: string | undefined;
  let user: string | undefined;
  // Continuation lines joined, comments dropped.
  const lines = text.replace(/\\\r?\n/g, " ").split(/\r?\n/);
  for (const raw of lines) {
    const line = raw.trim();
    const fromMatch = /^FROM\s+(?:--platform=\S+\s+)?(\S+)/i.exec(line);
    if (fromMatch) {
      from = fromMatch[1];
      user = undefined;
      continue;
    }
    const userMatch = /^USER\s+([^\s:]+)/i.exec(line);
    if (userMatch && from !== undefined) user = userMatch[1];
  }
  return from === undefined ? undefined : { from, user };
}

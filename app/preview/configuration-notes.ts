/**
 * What preview says about the devcontainer.json itself, before the workspace: which file the
 * service reads, bytes that are not UTF-8, JSONC syntax errors the Dev Containers CLI reads
 * past, and the error for a file that names no image.
 */
import {
  DEVCONTAINER_LOCATIONS,
  displayPath,
  type ConfigurationLocation,
  type DevcontainerFile,
  type JsoncSyntaxError,
} from "./devcontainer-file";

/** `  <file>:<line>:<column>: <code>` lines. */
export function syntaxErrorLines(where: string, errors: readonly JsoncSyntaxError[]): string {
  return errors.map((e) => `  ${where}:${e.line}:${e.column}: ${e.code}\n`).join("");
}

/** What preview says about which file the service reads, first in the report. */
export function configurationNotes(
  found: DevcontainerFile,
  where: ConfigurationLocation,
): string[] {
  const notes: string[] = [];
  if (found.kind === "config" && found.invalidUtf8 === true) {
    notes.push(
      `${displayPath(found.file)} holds bytes that are not UTF-8; they were read as U+FFFD (\u{fffd}), ` +
        "as the Dev Containers CLI reads them, so the values around them are not what the file's " +
        "author meant.",
    );
  }
  if (found.kind === "config" && found.syntaxErrors.length > 0) {
    const file = displayPath(found.file);
    notes.push(
      `${file} has JSONC syntax errors, which the Dev Containers CLI (run by the service) reads ` +
        "past: it uses what the parser recovers, as this preview does. Fix them, or the file " +
        "may not mean what it says: " +
        found.syntaxErrors.map((e) => `${file}:${e.line}:${e.column} ${e.code}`).join(", ") +
        ".",
    );
  }
  const standard = DEVCONTAINER_LOCATIONS.join(" or ");
  if (where.previewed !== null && !DEVCONTAINER_LOCATIONS.includes(where.previewed)) {
    notes.push(
      `devcontainer-builder reads ${standard}, not ${where.previewed}, and cannot be told ` +
        "another path (the build has no input for one). " +
        (where.serviceReads !== null
          ? `This repository's workspace gets ${where.serviceReads}; preview it to see that workspace. `
          : "This repository has neither, so its workspace gets the service's fallback image. ") +
        `To use ${where.previewed}, move it to .devcontainer/devcontainer.json (paths in it, ` +
        "such as build.dockerfile and build.context, are relative to the file).",
    );
  } else if (found.kind === "missing" && where.subfolderConfigurations.length > 0) {
    notes.push(
      `devcontainer-builder reads only ${standard}; it never reads ` +
        `${where.subfolderConfigurations.join(", ")}. Preview one with its path; to give the ` +
        "workspace one of them, move it to .devcontainer/devcontainer.json.",
    );
  }
  return notes;
}

/** The error for a configuration that names no image source, as the Dev Containers CLI has it. */
export function noImageMessage(file: string): string {
  return (
    `preview: ${file} names no image: it has no "image", no "build.dockerfile" (or the older ` +
    '"dockerFile") and no "dockerComposeFile". The Dev Containers CLI refuses such a file ' +
    '("No image information specified in devcontainer.json"), so devcontainer-builder\'s ' +
    "build fails and the workspace never starts. Add one of them.\n"
  );
}

/**
 * Finding and reading a repository's devcontainer.json for `npm run preview`.
 *
 * The file is JSONC (comments and trailing commas allowed), read with jsonc-parser as the
 * Dev Containers CLI, which the build service runs, reads it: tolerantly. The CLI ignores
 * syntax errors and uses what the parser recovers (a byte order mark, a missing comma); it
 * refuses only a file whose top level is not an object. So a syntax error is reported with
 * its line and column, and the configuration previewed is what was recovered.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { type ParseError, parse, printParseErrorCode } from "jsonc-parser";

/** Where a Dev Container configuration is looked for in a repository, in order. */
export const DEVCONTAINER_LOCATIONS = [".devcontainer/devcontainer.json", ".devcontainer.json"];

/** One syntax error, 1-based line and column. */
export interface JsoncSyntaxError {
  readonly line: number;
  readonly column: number;
  /** jsonc-parser's error code, e.g. "CommaExpected". */
  readonly code: string;
}

/** What {@link readDevcontainerFile} found. */
export type DevcontainerFile =
  /** A configuration object, with the file it came from and the syntax errors read past. */
  | {
      readonly kind: "config";
      readonly file: string;
      readonly config: Record<string, unknown>;
      readonly syntaxErrors: readonly JsoncSyntaxError[];
    }
  /** A repository folder without any of DEVCONTAINER_LOCATIONS. */
  | { readonly kind: "missing"; readonly folder: string; readonly looked: readonly string[] }
  /** What the parser recovers is not an object: the Dev Containers CLI refuses the file. */
  | {
      readonly kind: "invalid";
      readonly file: string;
      readonly errors: readonly JsoncSyntaxError[];
      readonly message: string;
    };

/**
 * Reads `target`: a devcontainer.json file, or a repository folder in which the
 * DEVCONTAINER_LOCATIONS are tried. Throws only when `target` does not exist.
 */
export function readDevcontainerFile(target: string): DevcontainerFile {
  if (!existsSync(target)) throw new Error(`${target}: no such file or folder`);
  let file = target;
  if (statSync(target).isDirectory()) {
    const found = DEVCONTAINER_LOCATIONS.map((l) => join(target, l)).find((f) => existsSync(f));
    if (found === undefined) {
      return { kind: "missing", folder: target, looked: DEVCONTAINER_LOCATIONS };
    }
    file = found;
  }
  return parseDevcontainerJson(readFileSync(file, "utf8"), file);
}

/** Parses JSONC text; `file` only labels the result. */
export function parseDevcontainerJson(text: string, file: string): DevcontainerFile {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, {
    allowTrailingComma: true,
    disallowComments: false,
  });
  const syntaxErrors = errors.map((e) => ({
    ...lineColumn(text, e.offset),
    code: printParseErrorCode(e.error),
  }));
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      kind: "invalid",
      file,
      errors: syntaxErrors,
      message: "the top level is not a JSON object",
    };
  }
  return { kind: "config", file, config: value as Record<string, unknown>, syntaxErrors };
}

/** A path relative to `from` when that is shorter, for messages. */
export function displayPath(path: string, from: string = process.cwd()): string {
  const rel = relative(from, path);
  return rel !== "" && !rel.startsWith("..") && rel.length < path.length ? rel : path;
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lines = before.split("\n");
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/** Which configuration devcontainer-builder reads for the repository a preview is about. */
export interface ConfigurationLocation {
  /** The repository's folder (its name is the workspace folder's). */
  readonly repository: string;
  /** The file previewed, relative to the repository; null when there is none. */
  readonly previewed: string | null;
  /** The file the service reads (one of DEVCONTAINER_LOCATIONS); null: its fallback image. */
  readonly serviceReads: string | null;
  /** Configurations in `.devcontainer/<name>/devcontainer.json`, which the service never reads. */
  readonly subfolderConfigurations: readonly string[];
}

/**
 * Locates `found` in its repository: `.devcontainer/devcontainer.json` and
 * `.devcontainer.json` are the repository's configuration, a file in a subfolder of
 * `.devcontainer/` belongs to the repository above `.devcontainer/`.
 */
export function locateConfiguration(found: DevcontainerFile): ConfigurationLocation {
  let repository: string;
  if (found.kind === "missing") {
    repository = resolve(found.folder);
  } else {
    const dir = dirname(resolve(found.file));
    repository =
      basename(dir) === ".devcontainer"
        ? dirname(dir)
        : basename(dirname(dir)) === ".devcontainer"
          ? dirname(dirname(dir))
          : dir;
  }
  const previewed =
    found.kind === "missing"
      ? null
      : relative(repository, resolve(found.file)).split(sep).join("/");
  const serviceReads = DEVCONTAINER_LOCATIONS.find((l) => existsSync(join(repository, l))) ?? null;
  const devcontainerDir = join(repository, ".devcontainer");
  const subfolderConfigurations = existsSync(devcontainerDir)
    ? readdirSync(devcontainerDir, { withFileTypes: true })
        .filter(
          (e) => e.isDirectory() && existsSync(join(devcontainerDir, e.name, "devcontainer.json")),
        )
        .map((e) => `.devcontainer/${e.name}/devcontainer.json`)
        .sort()
    : [];
  return { repository, previewed, serviceReads, subfolderConfigurations };
}

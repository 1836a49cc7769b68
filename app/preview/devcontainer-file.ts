/**
 * Finding and reading a repository's devcontainer.json for `npm run preview`.
 *
 * The file is JSONC (comments and trailing commas allowed), read with jsonc-parser as the
 * Dev Containers CLI, which the build service runs, reads it: tolerantly. The CLI ignores
 * syntax errors and uses what the parser recovers (a byte order mark, a missing comma); it
 * refuses only a file whose top level is not an object. So a syntax error is reported with
 * its line and column, and the configuration previewed is what was recovered.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import {
  type ParseError,
  type ParseOptions,
  parse,
  printParseErrorCode,
  visit,
} from "jsonc-parser";

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
      /** Bytes that are no UTF-8 were read as U+FFFD, as the Dev Containers CLI reads them. */
      readonly invalidUtf8?: boolean;
    }
  /** A repository folder without any of DEVCONTAINER_LOCATIONS. */
  | { readonly kind: "missing"; readonly folder: string; readonly looked: readonly string[] }
  /** What the parser recovers is not an object: the Dev Containers CLI refuses the file. */
  | {
      readonly kind: "invalid";
      readonly file: string;
      readonly errors: readonly JsoncSyntaxError[];
      readonly message: string;
    }
  /**
   * A file preview does not read: a link out of the repository, no regular file (a device,
   * a FIFO, a folder), too large, too deeply nested, or not UTF-8 at all.
   */
  | { readonly kind: "unreadable"; readonly file: string; readonly message: string };

/**
 * The largest devcontainer.json preview reads. Real ones are a few kB; a repository can
 * commit a link to /dev/zero or a file of hundreds of MB, which would exhaust memory.
 */
export const MAX_DEVCONTAINER_FILE_BYTES = 1024 * 1024;

/** The deepest nesting of objects and arrays preview reads (the parser recurses). */
export const MAX_DEVCONTAINER_DEPTH = 256;

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
  const problem = unreadable(file);
  if (problem !== undefined) return { kind: "unreadable", file, message: problem };
  const bytes = readFileSync(file);
  if (
    bytes.length >= 2 &&
    ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
  ) {
    return {
      kind: "unreadable",
      file,
      message:
        "is UTF-16 (it starts with a UTF-16 byte order mark); the Dev Containers CLI reads UTF-8",
    };
  }
  const text = bytes.toString("utf8");
  const depth = nestingDepth(text, MAX_DEVCONTAINER_DEPTH);
  if (depth > MAX_DEVCONTAINER_DEPTH) {
    return {
      kind: "unreadable",
      file,
      message: `nests objects and arrays more than ${MAX_DEVCONTAINER_DEPTH} levels deep; preview reads no deeper`,
    };
  }
  const read = parseDevcontainerJson(text, file);
  if (read.kind === "config" && !isUtf8(bytes)) return { ...read, invalidUtf8: true };
  return read;
}

/**
 * Why `file` is not read, or undefined. It must lie in its repository once links are
 * resolved (devcontainer-builder reads its own clone, where a link out of the repository
 * points at something else, and preview would print a file of the operator's), be a regular
 * file (a link to /dev/zero or a FIFO would never end), and be at most
 * {@link MAX_DEVCONTAINER_FILE_BYTES}.
 */
function unreadable(file: string): string | undefined {
  const repository = realpathSync(repositoryOf(file));
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return "is a link that leads nowhere";
  }
  if (!isWithin(real, repository)) {
    return (
      "is a link to a file outside the repository; devcontainer-builder reads its own clone, " +
      "where the link does not lead there, so preview does not read it"
    );
  }
  const stat = statSync(real);
  if (!stat.isFile()) return "is not a regular file (a folder, a device or a FIFO)";
  if (stat.size > MAX_DEVCONTAINER_FILE_BYTES) {
    return `is ${stat.size} bytes; preview reads at most ${MAX_DEVCONTAINER_FILE_BYTES}`;
  }
  return undefined;
}

/** How the file is read: as the Dev Containers CLI reads it (comments and trailing commas). */
const JSONC_OPTIONS: ParseOptions = { allowTrailingComma: true, disallowComments: false };

/** Thrown by the depth visitor to stop at the first level past the limit. */
class TooDeep extends Error {}

/**
 * The deepest nesting of objects and arrays as jsonc-parser's own parser sees it, counted up
 * to `limit` + 1. The visitor is the parser parse() runs (same scanner, same options, same
 * error recovery), and its begin and end callbacks follow its recursion exactly, so no text
 * can look shallow here and be deep to parse(): a scanner of our own disagreed with it where
 * an unterminated string ends (jsonc-parser ends it at the line break). Stopping at the first
 * level past the limit keeps the visitor's own stack shallow.
 */
function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  const begin = () => {
    deepest = Math.max(deepest, ++depth);
    if (deepest > limit) throw new TooDeep();
  };
  const end = () => {
    depth--;
  };
  try {
    visit(
      text,
      { onObjectBegin: begin, onArrayBegin: begin, onObjectEnd: end, onArrayEnd: end },
      JSONC_OPTIONS,
    );
  } catch (error) {
    if (!(error instanceof TooDeep)) throw error;
  }
  return deepest;
}

function isUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Parses JSONC text; `file` only labels the result. */
export function parseDevcontainerJson(text: string, file: string): DevcontainerFile {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, JSONC_OPTIONS);
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
  const repository = found.kind === "missing" ? resolve(found.folder) : repositoryOf(found.file);
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

/**
 * The repository a configuration file belongs to: the folder above `.devcontainer/` (for
 * `.devcontainer/devcontainer.json` and `.devcontainer/<name>/devcontainer.json`), else the
 * file's own folder (`.devcontainer.json`).
 */
function repositoryOf(file: string): string {
  const dir = dirname(resolve(file));
  return basename(dir) === ".devcontainer"
    ? dirname(dir)
    : basename(dirname(dir)) === ".devcontainer"
      ? dirname(dirname(dir))
      : dir;
}

/** Whether `path` is `root` or lies below it (both absolute, resolved the same way). */
export function isWithin(path: string, root: string): boolean {
  return path === root || path.startsWith(root + sep);
}

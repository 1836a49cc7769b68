import * as path from "path";
import { type IConstruct, type IResolvable, Token } from "./cdk";
import { escapeTemplateLiteral } from "./escape";
import { hcl } from "./expr";
import { readProjectFile } from "./project-root";
import { ShippedFile } from "./shipped-file";

/**
 * How a value is written into the script:
 * - `quoted`: a single-quoted shell word, every `'` written as `'\''`, so any text
 *   (a repository URL, a branch name, a list of IDs) stays one inert word;
 * - `base64`: the value base64-encoded (the script decodes it with `base64 -d`), for
 *   whole scripts and JSON documents, whose bytes then never meet a shell parser.
 */
export type ShellValueEncoding = "quoted" | "base64";

/** One `NAME='value'` line prepended to an embedded script. */
export interface ShellAssignment {
  /** A shell variable name (upper case, digits, underscores). */
  readonly name: string;
  /**
   * Literal text or a string token (an apply-time value). A token must not be null at
   * apply time: wrap optional values (`coalesce`, `try(…, "")`) before passing them.
   */
  readonly value: string;
  /** @default "quoted" */
  readonly encoding?: ShellValueEncoding;
}

/**
 * A shell script that ships with the project (`relPath` from the project root), made
 * ready for a Terraform string attribute (a coder_script's `script`, a container command):
 *
 * - the file ships unchanged in the template folder, as `scripts/<its name>`
 *   ({@link ShippedFile}), and the attribute reads it with `file()`: Terraform never parses
 *   its text as a template, so the shell's own `${…}` stay as they are;
 * - the assignments are inserted after the `#!` line (or at the top), one per line, with
 *   apply-time values interpolated as safely quoted words or base64, never spliced
 *   into code unescaped.
 *
 * The planned value is the whole script: `#!` line, assignments, the bodies of the
 * `preludes` (shipped scripts, by path from the project root), then the rest of the file.
 * The script reads its inputs as plain shell variables, as its header documents.
 */
export function embeddedScript(
  scope: IConstruct,
  relPath: string,
  assignments: readonly ShellAssignment[] = [],
  preludes: readonly string[] = [],
): string {
  const text = readProjectFile(relPath);
  const file = ShippedFile.of(scope, {
    source: relPath,
    path: `scripts/${path.posix.basename(relPath)}`,
  });
  // A prelude is another shipped script's body ({@link shippedScriptBody}) that runs first,
  // after the assignments: one file serves several scripts.
  const lines =
    assignments.map((a) => `${assignmentLine(a)}\n`).join("") +
    preludes.map((prelude) => `${Token.asString(shippedScriptBody(scope, prelude))}\n`).join("");
  const newline = text.indexOf("\n");
  if (text.startsWith("#!") && newline >= 0) {
    const shebang = text.slice(0, newline + 1);
    const rest = Token.asString(hcl`trimprefix(${file.fileExpression()}, ${shebang})`);
    return escapeTemplateLiteral(shebang) + lines + rest;
  }
  return lines + Token.asString(file.fileExpression());
}

/** `NAME='value'` for one assignment; literal values are quoted at synth, tokens at apply time. */
export function assignmentLine(assignment: ShellAssignment): string {
  if (!/^[A-Z_][A-Z0-9_]*$/.test(assignment.name)) {
    throw new Error(
      `embedded script: "${assignment.name}" is not an upper-case shell variable name`,
    );
  }
  const encoding = assignment.encoding ?? "quoted";
  const value = assignment.value;
  if (!Token.isUnresolved(value)) {
    const text = encoding === "base64" ? Buffer.from(value, "utf8").toString("base64") : value;
    return `${assignment.name}=${escapeTemplateLiteral(shellQuote(text))}`;
  }
  const expression =
    encoding === "base64" ? hcl`base64encode(${value})` : hcl`replace(${value}, "'", "'\\''")`;
  return `${assignment.name}='${Token.asString(expression)}'`;
}

/** A single-quoted shell word for `text`. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Terraform's `replace` pattern for a shipped script's header: the comment lines it starts with. */
const HEADER_PATTERN = "/^(#.*\n)+/";

/**
 * The lines of a shell script that ships with the project (`relPath`, as for
 * {@link embeddedScript}) after its header, the `#!` line and the comment lines that follow
 * it, and without the final newline: the text of a script the template completes itself
 * (an agent metadata script whose first line it writes), read with `file()` so that the
 * script passes shellcheck and operators read it as a file. The header must be followed by
 * the first line of code: a blank line would become part of the text.
 */
export function shippedScriptBody(scope: IConstruct, relPath: string): IResolvable {
  const text = readProjectFile(relPath);
  const body = text.replace(/^(#.*\n)+/, "");
  if (!text.startsWith("#!") || !text.endsWith("\n") || /^\s/.test(body) || body === "") {
    throw new Error(
      `${relPath}: a script body must follow a #! line and comment lines directly, ` +
        "and end with a newline",
    );
  }
  const file = ShippedFile.of(scope, {
    source: relPath,
    path: `scripts/${path.posix.basename(relPath)}`,
  });
  return hcl`chomp(replace(${file.fileExpression()}, ${HEADER_PATTERN}, ""))`;
}

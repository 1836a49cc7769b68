/**
 * The rules for values that come from a repository (its devcontainer.json, as the Dev Container
 * metadata data source returns it) before they reach a URL, a module input, a shell word, a
 * display name or a file path (docs/security.md, "Values from the repository").
 *
 * Every value is hostile: a rule is a conservative character set (or a size), checked at apply
 * time in HCL, and a value that breaks it is replaced by a fallback with a build-log warning
 * naming the field and the value, never a failed plan. The patterns are RE2 and JavaScript
 * (with the `u` flag) alike, so tests check planned values with the same text.
 */
import type { Construct } from "../core/cdk";
import { type Expr, hcl } from "../core/expr";
import { NamedLocals } from "../core/named-locals";

/**
 * The workspace folder. It reaches the vscode-desktop module's `vscode://…?folder=<folder>&url=…`
 * link unencoded and the vscode-web module's shell script, so it may hold only characters
 * without a meaning in a URL query or a shell word: no `& ? # = : ; $ ( ) " ' \` or spaces, and
 * no `+` (a URL query decodes it as a space). ASCII only.
 */
export const WORKSPACE_FOLDER_PATTERN = "^/[A-Za-z0-9._@,~/-]+$";

/**
 * A repository name (`repo_name`, the last segment of the repository URL): it becomes a segment
 * of the default workspace folder, so it has the folder's characters without `/`.
 */
export const REPO_NAME_PATTERN = "^[A-Za-z0-9._@,~-]+$";

/**
 * A path that only the pod sees (the home, a mount target): letters and digits of any script,
 * and `. _ @ + , ~ - /`. No whitespace (seed-home's lists are space-separated), no control
 * characters, quotes, `$`, backquotes, globs or `:`.
 */
export const POD_PATH_PATTERN = "^/[\\p{L}\\p{N}._@+,~/-]+$";

/**
 * The remote user's name: `USER`/`LOGNAME`, and the home `/home/<name>` when the image records
 * none, so it is a segment of {@link POD_PATH_PATTERN} that cannot start with `.` or `-`.
 */
export const USER_NAME_PATTERN = "^[\\p{L}\\p{N}_][\\p{L}\\p{N}._-]*$";

/**
 * A VS Code extension ID, `publisher.name` with an optional `@version`: it becomes an argument
 * of `code-server --install-extension`, so it can never start with `-` (an option).
 */
export const EXTENSION_ID_PATTERN =
  "^[A-Za-z0-9][A-Za-z0-9_-]*[.][A-Za-z0-9][A-Za-z0-9_-]*(@[0-9][0-9A-Za-z.+-]*)?$";

/**
 * Characters besides the control characters that are invisible or change the direction of the
 * text around them, as [first, last] code points: the soft hyphen, the Arabic letter mark,
 * the zero-width space, the left-to-right and right-to-left marks, the line and paragraph
 * separators, bidirectional embeddings, overrides and isolates, word joiners and invisible
 * operators, the byte order mark. Not the zero-width (non-)joiners, which scripts and emoji
 * sequences need. Preview escapes the same ones when it prints (app/preview/render-report.ts).
 */
export const HIDDEN_FORMAT_CHARACTERS: readonly (readonly [number, number])[] = [
  [0x00ad, 0x00ad],
  [0x061c, 0x061c],
  [0x200b, 0x200b],
  [0x200e, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x2064],
  [0x2066, 0x2069],
  [0xfeff, 0xfeff],
];

const hex = (code: number) => code.toString(16).toUpperCase().padStart(4, "0");
/** Control characters (C0, DEL, C1) and HIDDEN_FORMAT_CHARACTERS, as an RE2 class. */
const CONTROL_OR_HIDDEN = `[\\p{Cc}${HIDDEN_FORMAT_CHARACTERS.map(([a, b]) =>
  a === b ? `\\x{${hex(a)}}` : `\\x{${hex(a)}}-\\x{${hex(b)}}`,
).join("")}]`;

/**
 * Control characters (C0, DEL, C1) and the invisible or direction-changing ones, as a
 * Terraform replace() pattern in `local.control_characters` (one local: the pattern is read
 * at some 24 places): a build-log line or an app name may quote the repository, the `coder`
 * CLI prints the build log to the user's terminal, where an escape sequence would act, and
 * the dashboard shows app names, where a right-to-left override would reverse one.
 */
export function controlCharacters(scope: Construct): Expr<string> {
  return NamedLocals.shared<string>(
    scope,
    "control_characters",
    `/${CONTROL_OR_HIDDEN}+/`,
    "Repository text reaches terminals (the build log) and the dashboard: these become spaces.",
  );
}

/** Most bytes (UTF-8, Go's len) the coder provider accepts in a coder_app display_name. */
export const DISPLAY_NAME_MAX_BYTES = 64;

/**
 * A value as a warning shows it: JSON-quoted, with the `&`, `<` and `>` that Terraform's
 * jsonencode writes as `\u0026`, `\u003c`, `\u003e` shown as themselves. A value that holds
 * the text `\u0026` itself is JSON `\\u0026` and stays so: escaped backslashes are set aside
 * (as NUL, which jsonencode never writes) while the escapes are replaced.
 */
export function quotedForWarning(value: Expr<unknown>): Expr<string> {
  return hcl<string>`replace(replace(replace(replace(replace(jsonencode(${value}), "\\\\", "\u0000"), "\\u0026", "&"), "\\u003c", "<"), "\\u003e", ">"), "\u0000", "\\\\")`;
}

/** The number of bytes of a string in UTF-8 (Terraform's length() counts characters). */
export function utf8Bytes(value: Expr<string>): Expr<number> {
  return hcl<number>`(length(base64encode(${value})) / 4 * 3 - (length(base64encode(${value})) - length(trimsuffix(trimsuffix(base64encode(${value}), "="), "="))))`;
}

/**
 * The longest prefix of `value` of at most `maxBytes` UTF-8 bytes that ends on a character
 * boundary (Terraform's substr() counts grapheme clusters, so none is split); null when even
 * the first character is longer.
 */
export function capUtf8Bytes(value: Expr<string>, maxBytes: number): Expr<string> {
  const prefix = hcl<string>`substr(${value}, 0, n)`;
  return hcl<string>`try([for n in range(min(${maxBytes}, length(${value})), 0, -1) : ${prefix} if ${utf8Bytes(prefix)} <= ${maxBytes}][0], null)`;
}

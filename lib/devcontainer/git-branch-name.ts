/**
 * Which branch names the `branch` parameter accepts: git's rules for a branch
 * (`git check-ref-format --branch`, git-check-ref-format(1)) as one regular expression that
 * Coder (Go RE2), Terraform (RE2) and JavaScript read alike. RE2 has no lookahead, so each
 * "must not" is written into the shape of the pattern, from the pieces below. Refused:
 * - a name that begins with `-` (git would read it as an option: `--upload-pack=…`), `HEAD`, `@`;
 * - a control character (a line break), a space, any of `~ ^ : ? * [ \`, and `{`;
 * - a name that begins or ends with `/`, holds `//`, or ends with `.`;
 * - a `/`-separated part that begins with `.`, holds `..` or ends with `.lock`.
 * The one rule stricter than git's is `{`: git refuses only `@{`, but braces are revision
 * syntax (`@{1}`, `^{tree}`) and no branch needs them, and refusing `{` keeps the pattern short.
 * Everything else git takes is accepted, letters of any script included.
 */

/** The characters git refuses anywhere in a ref name (and `{`), as a class body. */
const REFUSED = "\\x00-\\x20\\x7f~^:?*\\[\\\\{";
/** One character of a part other than `.`. */
const CHAR = `[^${REFUSED}./]`;

/** `CHAR` without the characters of `also` (a `-` goes last, where it is no range). */
function charExcept(also: string): string {
  const dash = also.includes("-") ? "-" : "";
  return `[^${REFUSED}./${also.replace("-", "")}${dash}]`;
}

/**
 * A nonempty run of `CHAR`s that is not `word`; `head` are characters the run may not
 * begin with. A run differs from the word at its first character, or it stops before the
 * word ends, or it goes on past it.
 */
function runExcept(word: string, head = ""): string {
  const alternatives = [...word].map((c, i) => {
    const differs = `${charExcept(i === 0 ? `${c}${head}` : c)}${CHAR}*`;
    return i === 0 ? differs : `${word.slice(0, i)}(?:${differs})?`;
  });
  return `(?:${[...alternatives, `${word}${CHAR}+`].join("|")})`;
}

/** The rest of a part after its first run: `.run`s, the last not `lock`, maybe a final `.`. */
const PART_REST = `(?:(?:\\.${CHAR}+)*\\.(?:${runExcept("lock")})?)?`;
/** The same, but not ending with `.`: the name's last part. */
const LAST_PART_REST = `(?:(?:\\.${CHAR}+)*\\.${runExcept("lock")})?`;
/** The first run of the name: not beginning with `-`. */
const FIRST_RUN = `${charExcept("-")}${CHAR}*`;

/**
 * The `branch` parameter's validation: a branch name git accepts (see the file comment).
 * Anchored at both ends; `$` is the end of the text in RE2 and JavaScript alike.
 */
export const GIT_BRANCH_PATTERN =
  "^(?:" +
  [
    // One part without a dot: anything but HEAD and @.
    `${runExcept("HEAD", "-@")}|@${CHAR}+`,
    // One part with a dot.
    `${FIRST_RUN}(?:\\.${CHAR}+)*\\.${runExcept("lock")}`,
    // Several parts.
    `${FIRST_RUN}${PART_REST}(?:/${CHAR}+${PART_REST})*/${CHAR}+${LAST_PART_REST}`,
  ].join("|") +
  ")$";

/** The `branch` parameter's validation message (Coder shows it with the value). */
export const GIT_BRANCH_ERROR =
  "The branch must be a branch name as git allows it (git check-ref-format --branch): not " +
  "beginning with '-', no spaces, line breaks or other control characters, none of " +
  "~ ^ : ? * [ \\ {, no part that begins with '.', holds '..' or ends with '.lock', not " +
  "ending with '/' or '.', no '//', and not HEAD or @.";

/**
 * Terraform JSON strings are templates: `${…}` interpolates and `%{…}` is a
 * directive. A script or message that contains them literally (a shell
 * `${HOME}`, `${line%%=*}`) must be written as `$${` and `%%{` in the
 * synthesized JSON, or Terraform tries to evaluate it.
 *
 * cdktf's Fn.rawString() also escapes quotes, which then show up as literal
 * backslashes in the script, so we escape ourselves. Apply this only to literal
 * text, never to a string that already carries cdktf tokens.
 */
export function escapeTemplateLiteral(text: string): string {
  // Replacement functions, because "$$" in a replacement string means "$".
  return text.replace(/\$\{/g, () => "$${").replace(/%\{/g, () => "%%{");
}

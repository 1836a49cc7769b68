/**
 * The text report quotes the repository's text: what a terminal would act on is shown as an
 * escape instead (app/preview/render-report.ts).
 */
import { printable } from "../../../app/preview/render-report";

describe("printable", () => {
  it.each([
    ["an escape sequence that sets the title", "\u001b]0;pwned\u0007x", "\\x1b]0;pwned\\x07x"],
    ["a screen clear", "\u001b[2J", "\\x1b[2J"],
    ["a NUL and DEL", "a\u0000b\u007f", "a\\x00b\\x7f"],
    ["a C1 control (CSI)", "\u009b31m", "\\x9b31m"],
    ["a newline and a tab inside a value", "l1\nl2\tend", "l1\\nl2\\tend"],
    ["a right-to-left override", "gnp.\u202eexe", "gnp.\\u202eexe"],
    ["isolates and marks", "\u2066a\u2069\u200f", "\\u2066a\\u2069\\u200f"],
  ])("shows %s as escapes", (_what, text, shown) => {
    expect(printable(text)).toBe(shown);
  });

  it("leaves printable text, accents and emoji as they are", () => {
    const text = "Ünïcödé label 🚀 — «ok» ${HOME} 'q' \"dq\"";
    expect(printable(text)).toBe(text);
  });
});

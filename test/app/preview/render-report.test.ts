/**
 * The text report quotes the repository's text: what a terminal would act on is shown as an
 * escape instead (app/preview/render-report.ts).
 */
import { jsonText, printable } from "../../../app/preview/render-report";

describe("printable", () => {
  it.each([
    ["an escape sequence that sets the title", "\u001b]0;pwned\u0007x", "\\x1b]0;pwned\\x07x"],
    ["a screen clear", "\u001b[2J", "\\x1b[2J"],
    ["a NUL and DEL", "a\u0000b\u007f", "a\\x00b\\x7f"],
    ["a C1 control (CSI)", "\u009b31m", "\\x9b31m"],
    ["a newline and a tab inside a value", "l1\nl2\tend", "l1\\nl2\\tend"],
    ["a right-to-left override", "gnp.\u202eexe", "gnp.\\u202eexe"],
    ["isolates and marks", "\u2066a\u2069\u200f", "\\u2066a\\u2069\\u200f"],
    ["the Arabic letter mark", "a\u061cb", "a\\u061cb"],
    ["invisible characters", "a\u200bb\u2060c\ufeffd\u00ade", "a\\u200bb\\u2060c\\ufeffd\\xade"],
  ])("shows %s as escapes", (_what, text, shown) => {
    expect(printable(text)).toBe(shown);
  });

  it("leaves printable text, accents and emoji as they are", () => {
    const text = "Ünïcödé label 🚀 — «ok» ${HOME} 'q' \"dq\"";
    expect(printable(text)).toBe(text);
  });
});

describe("jsonText", () => {
  it("escapes what JSON leaves raw but a terminal acts on or hides, and stays the same JSON", () => {
    const value = { label: "x\u202ey\u009bz\u200b", plain: "é 🚀 \u200d" };
    const text = jsonText(value);
    expect(text).toContain("x\\u202ey\\u009bz\\u200b");
    expect(text).toContain("é 🚀 \u200d");
    expect(JSON.parse(text)).toEqual(value);
  });
});

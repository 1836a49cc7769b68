/**
 * docs/architecture.md is the map a newcomer reads first (issue 45): short, with a diagram of
 * the synth path and one of the preview path, and every file or folder it names exists, so
 * a move in the sources that the page does not follow fails here.
 */
import * as fs from "fs";
import * as path from "path";
import { projectRoot } from "../../lib/core/project-root";

const root = projectRoot();
const page = fs.readFileSync(path.join(root, "docs/architecture.md"), "utf8");

/** The project paths the page names (`<id>` read as a real template's id). */
function namedPaths(text: string): string[] {
  const found = text.match(
    /(?<![\w@/.-])(?:app|lib|scripts|templates|packages|eslint|test|docs)\/[\w./<>-]*/g,
  );
  return [
    ...new Set((found ?? []).map((p) => p.replace(/[/.]+$/, "").replace("<id>", "devcontainer"))),
  ];
}

test("is at most 120 lines, with the synth path and the preview path drawn", () => {
  expect(page.split("\n").length).toBeLessThanOrEqual(120);
  const diagrams = [...page.matchAll(/^## (.+)\n\n```\n([\s\S]*?)```/gm)].map((m) => m[1]);
  expect(diagrams).toEqual(["The synth path", "The preview path"]);
});

test("names only files and folders that exist", () => {
  const paths = namedPaths(page);
  expect(paths.length).toBeGreaterThan(20);
  expect(paths.filter((p) => !fs.existsSync(path.join(root, p)))).toEqual([]);
});

test("the path reader finds a moved file", () => {
  expect(namedPaths("see lib/devcontainer/gone.ts and app/synth.ts.")).toEqual([
    "lib/devcontainer/gone.ts",
    "app/synth.ts",
  ]);
  expect(fs.existsSync(path.join(root, "lib/devcontainer/gone.ts"))).toBe(false);
});

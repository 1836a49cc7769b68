/**
 * Helpers for the preview tests: run a preview with a shared session and read the text
 * report's sections and rows.
 */
import { type PreviewSession, runPreview } from "../../../cli/run-preview";

/** Runs preview with `session` and captures what it prints. */
export async function previewWith(session: PreviewSession, argv: readonly string[]) {
  let stdout = "";
  let stderr = "";
  const status = await runPreview(
    argv,
    { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) },
    session,
  );
  return { status, stdout, stderr };
}

/** The lines of one section of the text report (title line excluded); [] when it is absent. */
export function section(text: string, title: string): string[] {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.startsWith(title));
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && l === "");
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** Cells of a table row (or a name-value pair) whose first cell is `name`. */
export function row(lines: readonly string[], name: string): string[] | undefined {
  return lines.map((l) => l.trim().split(/\s{2,}/)).find((cells) => cells[0] === name);
}

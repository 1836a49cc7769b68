/**
 * Helpers for the preview tests: open a session, run a preview with it and read the text
 * report's sections and rows.
 */
import { PreviewSession, runPreview } from "../../../scripts/commands/run-preview";
import { synthTemplate } from "../../support/synth-template";

/**
 * A session on the devcontainer template as the jest run synthesized it (what
 * `PreviewSession.start` would synthesize without an operator configuration), so that a test
 * file does not synthesize it again. preview.test.ts compares a preview of this session
 * with `npm run preview` itself.
 */
export async function startSession(): Promise<PreviewSession> {
  const template = synthTemplate("devcontainer");
  try {
    const session = await PreviewSession.fromSynthesized(template.dir, template.config);
    // Synthesized with no coder-cdktf.jsonc, as the session of `npm run preview` here.
    session.operatorConfig = null;
    return session;
  } finally {
    template.cleanup();
  }
}

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

/**
 * Helpers for the preview tests: open a session, run a preview with it and read the text
 * report's sections and rows.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PreviewSession } from "../../../app/preview/preview-session";
import { runPreview } from "../../../scripts/commands/run-preview";
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

/** A repository folder `root`/`name` with `files` (path → JSON value or text); returns its path. */
export function writeRepository(
  root: string,
  name: string,
  files: Record<string, unknown>,
): string {
  const dir = join(root, name);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    const text = typeof content === "string" ? content : JSON.stringify(content, null, 2);
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** What {@link repositoriesFixture} gives a test file once its `beforeAll` has run. */
export interface RepositoriesFixture {
  readonly session: PreviewSession;
  /** A repository folder `name` with `files` (path → JSON value or text) in the fixture's temp folder. */
  repository(name: string, files: Record<string, unknown>): string;
}

/**
 * One session and one temp folder of repositories for a test file: opened before its tests,
 * closed and removed after them. `prefix` names the temp folder.
 */
export function repositoriesFixture(prefix: string): RepositoriesFixture {
  let session: PreviewSession | undefined;
  let root = "";
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), prefix));
    session = await startSession();
  });
  afterAll(async () => {
    await session?.close();
    if (root !== "") rmSync(root, { recursive: true, force: true });
  });
  return {
    get session() {
      if (session === undefined) throw new Error("the preview session is opened in beforeAll");
      return session;
    },
    repository: (name, files) => writeRepository(root, name, files),
  };
}

/** Text and JSON of one preview, both required to succeed. */
export async function previewBoth(session: PreviewSession, argv: readonly string[]) {
  const text = await previewWith(session, argv);
  expect(text.stderr).toBe("");
  expect(text.status).toBe(0);
  const json = await previewWith(session, [...argv, "--json"]);
  expect(json.status).toBe(0);
  return { text: text.stdout, report: JSON.parse(json.stdout) };
}

/** The value cells of a name-value pair or table row, joined. */
export function pair(lines: readonly string[], name: string): string | undefined {
  return row(lines, name)?.slice(1).join("  ");
}

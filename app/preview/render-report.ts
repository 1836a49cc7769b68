/**
 * `npm run preview` output: the planned workspace as readable tables, or as JSON.
 */
import { HIDDEN_FORMAT_CHARACTERS } from "../../lib/devcontainer/repository-values";
import type { WorkspaceReport } from "./workspace-report";

/** Everything preview prints. */
export interface PreviewReport {
  /**
   * The operator configuration (coder-cdktf.jsonc) the template was synthesized with; null
   * for none (the template's defaults); absent when the session does not know.
   */
  readonly operatorConfig?: string | null;
  /** The devcontainer.json read, or null when the repository has none. */
  readonly devcontainerFile: string | null;
  /** The file devcontainer-builder reads in the repository; null: its fallback image. */
  readonly serviceReads: string | null;
  /** Template variables and workspace parameters the plan used (preview's and the user's). */
  readonly variables: Readonly<Record<string, string>>;
  readonly parameters: Readonly<Record<string, string>>;
  /** What to know about this workspace beyond warnings (app/preview/workspace-notes.ts). */
  readonly notes: readonly string[];
  /** Lifecycle hooks that have a command, in the order they run. */
  readonly lifecycleHooks: readonly string[];
  /** VS Code extensions the repository asks for. */
  readonly extensions: readonly string[];
  /**
   * Names of `workspace.missingVariables` that most machines leave empty (WSLENV, DISPLAY…):
   * empty in the workspace unless set in Dev Container variables, rather than missing.
   */
  readonly emptyUnlessSet: readonly string[];
  /** What only the service can know, and what preview assumed instead. */
  readonly unknowns: readonly string[];
  readonly assumptions: readonly string[];
  /**
   * The image decides the user at build time (nothing preview reads names it): the user row
   * says so instead of the planned placeholder. @default false
   */
  readonly userDecidedAtBuild?: boolean;
  /** What the template planned. */
  readonly workspace: WorkspaceReport;
}

/** The report as JSON (stable key order, two-space indent). */
export function renderJson(report: PreviewReport): string {
  return jsonText(report);
}

/**
 * `value` as JSON text, two-space indent, with the characters JSON leaves raw but a terminal
 * acts on or hides (C1 controls, bidirectional controls, invisible ones) as `\u` escapes: the
 * same JSON value, safe to print.
 */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(HIDDEN_OR_ACTIVE, unicodeEscape) + "\n";
}

/** The report as text tables, section by section. */
export function renderText(report: PreviewReport): string {
  const out: string[] = [];
  headerLines(out, report);
  resourcesSection(out, report);
  placementSection(out, report);
  userSection(out, report);
  mountsSection(out, report);
  runtimeSection(out, report);
  appsSection(out, report);
  startSection(out, report);
  environmentSection(out, report);
  lifecycleSection(out, report);
  diagnosticsSection(out, report);
  serviceSection(out, report);
  return out.map(printable).join("\n") + "\n";
}

/** The report's first lines: the file, the inputs, the configuration and the notes. */
function headerLines(out: string[], report: PreviewReport): void {
  out.push(
    `Dev Container preview of ${report.devcontainerFile ?? "a repository without devcontainer.json"}`,
    "Computed by the devcontainer template's own Terraform (a first start applied against mock " +
      "providers), with the service's answers derived from the file (see the end for what only " +
      "the service knows).",
  );
  const inputs = Object.entries({ ...report.variables, ...report.parameters });
  out.push(`Inputs: ${inputs.map(([k, v]) => `${k}=${v}`).join(", ")}`);
  out.push(
    `devcontainer-builder reads: ${report.serviceReads ?? "no devcontainer.json (its fallback image)"}`,
  );
  if (report.operatorConfig !== undefined) {
    out.push(
      `Operator configuration: ${report.operatorConfig ?? "none (no coder-cdktf.jsonc: the template's defaults)"}`,
    );
  }
  if (report.notes.length > 0) {
    section(out, "Notes");
    out.push(...bullets(report.notes, "none"));
  }
}

/** The requests and limits beside the disk, and the workspace page's summary. */
function resourcesSection(out: string[], report: PreviewReport): void {
  const w = report.workspace;
  section(out, "Resources");
  const names = [
    ...new Set([...Object.keys(w.resources.requests), ...Object.keys(w.resources.limits)]),
  ];
  const order = (n: string) => (n === "cpu" ? 0 : n === "memory" ? 1 : 2);
  names.sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  out.push(
    ...table(
      ["resource", "request", "limit"],
      [
        ...names.map((n) => [
          n,
          quantity(w.resources.requests[n]),
          quantity(w.resources.limits[n]),
        ]),
        [
          "disk (PVC)",
          quantity(w.resources.disk ?? undefined),
          "fixed when the workspace is created",
        ],
      ],
    ),
  );
  // The template writes each size in the unit a person reads (8Gi, 1536Mi): the page's line
  // and the pod's quantities are shown as planned, the same words as on the workspace page.
  if (w.resources.summary) out.push(`  workspace page: ${w.resources.summary}`);
}

/** Where the pod may run. */
function placementSection(out: string[], report: PreviewReport): void {
  const w = report.workspace;
  section(out, "Node placement");
  const selector = Object.entries(w.placement.nodeSelector).map(([k, v]) => `${k}=${v}`);
  out.push(
    ...pairs([
      ["node selector", selector.join(", ") || "none"],
      ["tolerations", w.placement.tolerations.map((t) => JSON.stringify(t)).join("; ") || "none"],
      ["spreading", w.placement.antiAffinity ? "prefers a node without another workspace" : "none"],
    ]),
  );
}

/** Who the workspace runs as and where its files are. */
function userSection(out: string[], report: PreviewReport): void {
  const w = report.workspace;
  section(out, "User");
  const u = w.user;
  out.push(
    ...pairs([
      [
        "user",
        (report.userDecidedAtBuild === true
          ? "decided at build time (the image's devcontainer.metadata remoteUser, else its " +
            "USER); planned as "
          : "") +
          `${u.name ?? "?"} (uid ${u.uid ?? "?"}, gid ${u.gid ?? "?"}, fsGroup ${u.fsGroup ?? "?"})`,
      ],
      ["home", u.home ?? "?"],
      ["workspace folder", u.workspaceFolder ?? "?"],
      ["repository cloned into", u.repositoryFolder ?? u.workspaceFolder ?? "?"],
    ]),
  );
}

/** What container `dev` mounts. */
function mountsSection(out: string[], report: PreviewReport): void {
  const w = report.workspace;
  section(out, "Mounts (container dev)");
  out.push(
    ...table(
      ["path", "from", "mode"],
      w.mounts.map((m) => [
        m.path,
        m.seededFromImage ? `${m.source}, seeded from the image on first use` : m.source,
        m.readOnly ? "read-only" : "read-write",
      ]),
    ),
  );
}

/** What the container may do. */
function runtimeSection(out: string[], report: PreviewReport): void {
  const w = report.workspace;
  section(out, "Runtime");
  const r = w.runtime;
  out.push(
    ...pairs([
      ["capabilities added", r.capabilities.join(", ") || "none"],
      ["privileged", r.privileged ? "yes" : "no"],
      ["seccomp", r.seccompUnconfined ? "unconfined" : "runtime default"],
      ["init (shared PID namespace)", r.shareProcessNamespace ? "yes" : "no"],
      ["hostname", r.hostname ?? "default"],
      ["host aliases", r.hostAliases.join("; ") || "none"],
      ["Pod Security level", podSecurityText(r.podSecurity)],
    ]),
  );
}

/** The workspace's apps. */
function appsSection(out: string[], report: PreviewReport): void {
  const w = report.workspace;
  section(out, "Apps");
  out.push(
    ...(w.apps.length
      ? table(
          ["app", "what"],
          w.apps.map((a) => [a.name, a.detail]),
        )
      : ["  none"]),
  );
}

/** What runs at start. */
function startSection(out: string[], report: PreviewReport): void {
  const w = report.workspace;
  section(out, "At start");
  out.push(
    ...pairs([
      ["scripts", w.scripts.join(", ") || "none"],
      ["lifecycle commands", report.lifecycleHooks.join(", ") || "none"],
      ["VS Code extensions", report.extensions.join(", ") || "none"],
    ]),
  );
}

/** The environment, in the order it is applied. */
function environmentSection(out: string[], report: PreviewReport): void {
  const w = report.workspace;
  section(out, "Environment (terminals, IDEs and hooks; later entries win)");
  out.push(
    ...table(
      ["name", "value", "from"],
      w.environment.map((e) => [
        e.name,
        e.value === null ? "(value hidden)" : e.value,
        e.overridden ? `${e.from} (overridden below)` : e.from,
      ]),
    ),
  );
}

/** Each lifecycle command with its script. */
function lifecycleSection(out: string[], report: PreviewReport): void {
  const w = report.workspace;
  section(out, "Lifecycle commands as they run");
  if (w.lifecycle.length === 0) out.push("  none");
  for (const c of w.lifecycle) {
    out.push(
      `  ${c.hook}: ${c.when}`,
      ...c.script
        .trimEnd()
        .split("\n")
        .map((l) => `    | ${l}`),
    );
  }
}

/** The build log's warnings, missing variables and other Terraform warnings. */
function diagnosticsSection(out: string[], report: PreviewReport): void {
  const w = report.workspace;
  section(out, `Warnings in the build log (${w.warnings.length})`);
  out.push(...bullets(w.warnings, "none"));
  const lacking = w.missingVariables.filter((n) => !report.emptyUnlessSet.includes(n));
  if (lacking.length > 0) {
    section(out, "Dev Container variables the workspace lacks");
    out.push(
      ...bullets(lacking, "none"),
      "  (only names are checked: --param devcontainer_variables='NAME=x' previews one as set)",
    );
  }
  if (report.emptyUnlessSet.length > 0) {
    section(out, "Empty unless set in Dev Container variables");
    out.push(
      ...bullets(report.emptyUnlessSet, "none"),
      "  (left empty on most machines; the build log lists them with the missing ones)",
    );
  }
  if (w.otherDiagnostics.length > 0) {
    section(out, "Other Terraform warnings");
    out.push(...bullets(w.otherDiagnostics, "none"));
  }
}

/** What only the service knows and what was assumed instead. */
function serviceSection(out: string[], report: PreviewReport): void {
  section(out, "Only the service knows");
  out.push(...bullets(report.unknowns, "nothing beyond the assumptions below"));
  section(out, "Assumed instead");
  out.push(...bullets(report.assumptions, "nothing"));
}

/**
 * Characters a terminal acts on, or that reorder what it shows, as visible escapes (`\x1b`,
 * `\n`, `\u202e`): the report quotes the repository's text, and an escape sequence in a
 * label or an env value would set the terminal's title or clear it, a newline would split a
 * table row, a right-to-left override would show another text than the file's. `--json` has
 * JSON's own escapes.
 */
export function printable(text: string): string {
  return text
    .replace(
      // eslint-disable-next-line no-control-regex -- control characters are what it escapes
      /[\u0000-\u001f]/g,
      (c) => controlEscape(c),
    )
    .replace(HIDDEN_OR_ACTIVE, (c) => controlEscape(c));
}

/**
 * Besides C0 controls: DEL and C1 controls, and the invisible or direction-changing characters
 * the template replaces in app names and build-log lines (HIDDEN_FORMAT_CHARACTERS: the soft
 * hyphen, bidirectional overrides, zero-width spaces, ...). Not the zero-width joiner, which
 * emoji sequences need.
 */
const HIDDEN_OR_ACTIVE = new RegExp(
  `[\\u007f-\\u009f${HIDDEN_FORMAT_CHARACTERS.map(([first, last]) =>
    first === last ? codeUnit(first) : `${codeUnit(first)}-${codeUnit(last)}`,
  ).join("")}]`,
  "g",
);

function codeUnit(code: number): string {
  return `\\u${code.toString(16).padStart(4, "0")}`;
}

function controlEscape(c: string): string {
  const code = c.charCodeAt(0);
  if (c === "\n") return "\\n";
  if (c === "\t") return "\\t";
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : unicodeEscape(c);
}

/** `\uXXXX` for one UTF-16 unit: JSON's escape, and the report's above U+00FF. */
function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** The level the pod meets; the one asked for too when the pod does not meet it. */
function podSecurityText(p: WorkspaceReport["runtime"]["podSecurity"]): string {
  const level = p.level ?? "?";
  return p.requested !== null && p.requested !== p.level
    ? `${level} (pod_security_level asks for ${p.requested}; see the warnings)`
    : level;
}

/** A quantity as planned ("-" when there is none). */
function quantity(value: string | undefined): string {
  return value ?? "-";
}

function section(out: string[], title: string): void {
  out.push("", title);
}

function bullets(lines: readonly string[], empty: string): string[] {
  return lines.length === 0 ? [`  ${empty}`] : lines.map((l) => `  - ${l}`);
}

function pairs(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`);
}

/** A table with a header row; columns padded to their widest cell. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  if (rows.length === 0) return ["  none"];
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  const line = (r: readonly string[]) =>
    "  " + r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join("  ");
  return [line(header), line(widths.map((n) => "-".repeat(n))), ...rows.map(line)];
}

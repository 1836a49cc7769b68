/**
 * The upgrade report as text (a summary table, then each workspace's changes) and as JSON,
 * and the command's exit status. Addresses and attribute paths only: no value of a state, and
 * what the texts quote (a diagnostic, an API server's refusal) redacted (redact.ts).
 */
import { isCoderRecord, OUTCOME_WORDS, OUTCOMES, type Outcome } from "./classify-changes";
import { printable } from "../preview/render-report";
import { losesData, type UpgradeReport, type WorkspaceUpgrade } from "./plan-upgrade";
import { redact } from "./redact";

/** Exit status when a workspace would lose data (the push hook refuses on it too). */
export const EXIT_DATA_LOSS = 3;
/** Exit status when a workspace could not be planned, and none loses data. */
export const EXIT_FAILED = 1;

/** 0, {@link EXIT_FAILED} or {@link EXIT_DATA_LOSS} (data loss wins). */
export function exitStatus(report: UpgradeReport): number {
  if (losesData(report)) return EXIT_DATA_LOSS;
  return report.workspaces.some((w) => "error" in w) ? EXIT_FAILED : 0;
}

function outcomeOf(w: WorkspaceUpgrade): string {
  return "error" in w ? "not planned" : OUTCOME_WORDS[w.outcome];
}

/** The report as text: one summary table, then what changes in each workspace. */
export function renderUpgradeText(report: UpgradeReport): string {
  const rows = report.workspaces.map((w) => [
    printable(w.workspace),
    "error" in w ? "?" : w.stopped ? "stopped" : "running",
    outcomeOf(w),
    "error" in w ? "?" : w.dataLoss.length > 0 ? `YES (${w.dataLoss.length})` : "no",
    "error" in w ? "?" : w.accessLoss.length > 0 ? `YES (${w.accessLoss.length})` : "no",
  ]);
  const head = ["workspace", "last build", "next start", "data loss", "access loss"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  const out: string[] = [
    `template ${printable(report.template)}: ${report.workspaces.length} workspace(s)`,
    "",
    line(head),
    `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`,
    ...rows.map(line),
    "",
  ];
  for (const w of report.workspaces) out.push(...workspaceLines(w), "");
  out.push(summaryLine(report));
  return redact(`${out.join("\n")}\n`);
}

function workspaceLines(w: WorkspaceUpgrade): string[] {
  const title = `${printable(w.workspace)} (${printable(w.source)}): ${outcomeOf(w)}`;
  if ("error" in w) return [title, ...w.error.split("\n").map((l) => `  ${printable(l)}`)];
  const lines = [title];
  for (const c of w.changes) {
    const why =
      c.forcedBy.length > 0
        ? ` forced by ${c.forcedBy.join(", ")}`
        : c.changed.length > 0
          ? ` changes ${c.changed.join(", ")}`
          : "";
    const loss =
      c.loses === "data"
        ? "  DATA LOSS"
        : c.loses === "access"
          ? "  ACCESS LOSS"
          : c.outcome === "replaced" && isCoderRecord(c.type)
            ? " (a Coder record: harmless)"
            : "";
    lines.push(
      `  ${OUTCOME_WORDS[c.outcome].padEnd(16)} ${c.address}${why}${c.reason ? ` (${c.reason})` : ""}${loss}`,
    );
  }
  if (w.created.length > 0) {
    const note = w.stopped ? " (a start of the stopped workspace creates them anyway)" : "";
    lines.push(`  ${"created".padEnd(16)} ${w.created.join(", ")}${note}`);
  }
  if (w.changes.length === 0 && w.created.length === 0) lines.push("  no change");
  for (const r of w.refused) lines.push(`  API server would refuse: ${printable(r)}`);
  if (w.unchecked.length > 0)
    lines.push(`  not planned (registry modules, stand-ins here): ${w.unchecked.join(", ")}`);
  return lines;
}

function summaryLine(report: UpgradeReport): string {
  const counts = new Map<string, number>();
  for (const w of report.workspaces) counts.set(outcomeOf(w), (counts.get(outcomeOf(w)) ?? 0) + 1);
  const order = [...OUTCOMES.map((o: Outcome) => OUTCOME_WORDS[o]), "not planned"];
  const parts = order.filter((o) => counts.has(o)).map((o) => `${counts.get(o)} ${o}`);
  const losing = report.workspaces.filter((w) => "dataLoss" in w && w.dataLoss.length > 0);
  const verdict =
    losing.length > 0
      ? `DATA LOSS in ${losing.length}: ${losing.map((w) => printable(w.workspace)).join(", ")}`
      : "no workspace loses data";
  return `summary: ${parts.join(", ") || "no workspaces"}; ${verdict}`;
}

/** The report as JSON (one document, stable key order). */
export function renderUpgradeJson(report: UpgradeReport): string {
  return `${JSON.stringify(
    {
      template: report.template,
      losesData: losesData(report),
      workspaces: report.workspaces.map((w) =>
        "error" in w
          ? { workspace: w.workspace, source: w.source, error: w.error }
          : {
              workspace: w.workspace,
              source: w.source,
              stopped: w.stopped,
              outcome: w.outcome,
              dataLoss: w.dataLoss,
              accessLoss: w.accessLoss,
              changes: w.changes,
              created: w.created,
              refused: w.refused,
              unchecked: w.unchecked,
            },
      ),
    },
    // Each string redacted on its own, so the document stays JSON.
    (_key, value: unknown) => (typeof value === "string" ? redact(value) : value),
    2,
  )}\n`;
}

/**
 * Terraform diagnostics as the harness reports them, read from `-json` streaming output.
 */
import { isRecord, parseJsonLines } from "./json";

/** One Terraform diagnostic (warning or error). */
export interface Diagnostic {
  readonly severity: "error" | "warning";
  readonly summary: string;
  readonly detail: string;
  /**
   * The configuration block the diagnostic points into, e.g. "check.cpu_fits" or
   * "resource.coder_agent.main", when known: the same whether the block is written in a
   * `.tf` or a `.tf.json` file ({@link blockAddress}).
   */
  readonly address?: string;
}

/** Summary Terraform uses for a failed `check` block assertion (a warning, not an error). */
export const CHECK_FAILED_SUMMARY = "Check block assertion failed";

/**
 * Diagnostics in a `terraform plan -json` / `apply -json` stream, without the noise that every
 * harness run produces (provider development overrides).
 */
export function diagnosticsFromStream(stdout: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const line of parseJsonLines(stdout)) {
    if (!isRecord(line.diagnostic)) continue;
    diagnostics.push(toDiagnostic(line.diagnostic));
  }
  return diagnostics.filter((d) => !d.summary.startsWith("Provider development overrides"));
}

/** Converts one diagnostic object as Terraform writes it in JSON. */
export function toDiagnostic(raw: Record<string, unknown>): Diagnostic {
  const snippet = isRecord(raw.snippet) ? raw.snippet : undefined;
  const context = snippet && typeof snippet.context === "string" ? snippet.context : undefined;
  return {
    severity: raw.severity === "error" ? "error" : "warning",
    summary: typeof raw.summary === "string" ? raw.summary : "",
    detail: typeof raw.detail === "string" ? raw.detail : "",
    ...(context ? { address: blockAddress(context) } : {}),
  };
}

/** How many labels each top-level block type has (JSON nests them as keys). */
const BLOCK_LABELS: Readonly<Record<string, number>> = {
  resource: 2,
  data: 2,
  ephemeral: 2,
  check: 1,
  module: 1,
  output: 1,
  provider: 1,
  variable: 1,
};

/**
 * The block a snippet's context names, dotted: Terraform gives the header of the block in a
 * `.tf` file (`check "cpu_fits"`) and the path of keys in a `.tf.json` file
 * (`check.cpu_fits.assert[0]`); both become `check.cpu_fits`. Anything else stays as given.
 */
export function blockAddress(context: string): string {
  const header = /^([a-z_]+)((?: "(?:[^"\\]|\\.)*")*)$/.exec(context);
  if (header !== null) {
    const labels = [...header[2].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
    return [header[1], ...labels].join(".");
  }
  const [type, ...rest] = context.split(".");
  const labels = BLOCK_LABELS[type];
  if (labels === undefined || rest.length < labels) return context;
  return [type, ...rest.slice(0, labels).map((part) => part.replace(/\[.*$/, ""))].join(".");
}

/** The error messages of failed `check` assertions among `diagnostics`, in order. */
export function checkFailureMessages(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.filter((d) => d.summary === CHECK_FAILED_SUMMARY).map((d) => d.detail);
}

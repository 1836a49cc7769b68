/**
 * Terraform diagnostics as the harness reports them, read from `-json` streaming output.
 */
import { isRecord, parseJsonLines } from "./json";

/** One Terraform diagnostic (warning or error). */
export interface Diagnostic {
  readonly severity: "error" | "warning";
  readonly summary: string;
  readonly detail: string;
  /** Configuration address the diagnostic points at, e.g. "check.cpu_fits[0]", when known. */
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
    ...(context ? { address: context } : {}),
  };
}

/** The error messages of failed `check` assertions among `diagnostics`, in order. */
export function checkFailureMessages(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.filter((d) => d.summary === CHECK_FAILED_SUMMARY).map((d) => d.detail);
}

/**
 * Small helpers for reading Terraform's JSON output.
 */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Parses Terraform's `-json` streaming output (one JSON object per line). */
export function parseJsonLines(text: string): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      const parsed: unknown = JSON.parse(line);
      if (isRecord(parsed)) lines.push(parsed);
    } catch {
      // Not a JSON line (Terraform may print plain text before the stream starts).
    }
  }
  return lines;
}

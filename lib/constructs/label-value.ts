import { Token } from "../core/cdk";
import { hcl } from "../core/expr";

/** Longest Kubernetes label value. */
export const MAX_LABEL_VALUE_LENGTH = 63;

/**
 * A human-readable name (a Coder user or workspace name) made safe for a Kubernetes
 * label value: lower case, every character outside `[a-z0-9.-]` replaced by `-`, cut
 * to 63 characters, and leading/trailing `-`/`.` trimmed (a label value must start and
 * end with an alphanumeric). Labels are for people and selectors; the exact name
 * stays in Coder.
 *
 * Literal text is sanitized at synth time; a token (an apply-time value such as
 * `data.coder_workspace.me.name`) becomes the equivalent Terraform expression.
 */
export function sanitizedLabelValue(value: string): string {
  if (!Token.isUnresolved(value)) return sanitizeNow(value);
  return Token.asString(
    hcl`trim(substr(replace(lower(${value}), "/[^a-z0-9.-]/", "-"), 0, ${MAX_LABEL_VALUE_LENGTH}), "-.")`,
  );
}

function sanitizeNow(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9.-]/g, "-")
    .slice(0, MAX_LABEL_VALUE_LENGTH)
    .replace(/^[-.]+|[-.]+$/g, "");
}

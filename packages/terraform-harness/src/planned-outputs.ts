/**
 * Root module outputs of a saved plan, read from `terraform show -json`.
 */
import { isRecord } from "./json";

/** One planned root output. */
export interface PlannedOutput {
  /** The planned value; undefined while `unknown`. */
  readonly value: unknown;
  readonly sensitive: boolean;
  /** True when the value is only known after apply. */
  readonly unknown: boolean;
}

/** Extracts the outputs from a `terraform show -json <plan>` document. */
export function plannedOutputs(showJson: Record<string, unknown>): Record<string, PlannedOutput> {
  const planned = isRecord(showJson.planned_values) ? showJson.planned_values : {};
  const outputs = isRecord(planned.outputs) ? planned.outputs : {};
  const changes = isRecord(showJson.output_changes) ? showJson.output_changes : {};
  const result: Record<string, PlannedOutput> = {};
  for (const [name, raw] of Object.entries(outputs)) {
    const output = isRecord(raw) ? raw : {};
    const change = isRecord(changes[name]) ? (changes[name] as Record<string, unknown>) : {};
    // A wholly unknown output has no "value" key; partly unknown ones are flagged in the change.
    const unknown = !("value" in output) || change.after_unknown === true;
    result[name] = {
      value: unknown && !("value" in output) ? undefined : output.value,
      sensitive: output.sensitive === true,
      unknown,
    };
  }
  return result;
}

/**
 * What an apply left, read from the state file itself (format version 4) rather than from
 * `terraform show -json`: one Terraform run fewer per apply (~0.08 s of CPU, 16 times per
 * `npm test`). The addresses, values and sensitive masks are the ones `show -json` prints;
 * terraform-harness.test.ts compares the two on an applied template.
 */
import { isRecord } from "./json";

/** A resource instance or read data source in a state. */
export interface StateResource {
  /** Its address, as Terraform prints it (`module.m["k"].data.t.n[0]`). */
  readonly address: string;
  readonly mode: "managed" | "data";
  readonly type: string;
  readonly index: number | string | undefined;
  readonly values: Record<string, unknown>;
  /**
   * Where the values are sensitive, in the shape of `sensitive_values` of `show -json`:
   * `true` at each sensitive attribute or element, objects on the way to it.
   */
  readonly sensitive: Record<string, unknown>;
}

/** A root output in a state. */
export interface StateOutput {
  readonly value: unknown;
  readonly sensitive: boolean;
}

/** Every resource instance and read data source of `state`, in state order. */
export function stateResources(state: Readonly<Record<string, unknown>>): StateResource[] {
  const resources = Array.isArray(state.resources) ? state.resources.filter(isRecord) : [];
  return resources.flatMap((resource) => {
    const mode = resource.mode === "data" ? "data" : "managed";
    const type = String(resource.type);
    const base = [
      typeof resource.module === "string" ? `${resource.module}.` : "",
      mode === "data" ? "data." : "",
      `${type}.${String(resource.name)}`,
    ].join("");
    const instances = Array.isArray(resource.instances) ? resource.instances.filter(isRecord) : [];
    return instances.map((instance): StateResource => {
      const index = instance.index_key as number | string | undefined;
      return {
        address: index === undefined ? base : `${base}[${JSON.stringify(index)}]`,
        mode,
        type,
        index,
        values: isRecord(instance.attributes) ? instance.attributes : {},
        sensitive: sensitiveMask(instance.sensitive_attributes),
      };
    });
  });
}

/** The root outputs of `state`. */
export function stateOutputs(
  state: Readonly<Record<string, unknown>>,
): Record<string, StateOutput> {
  const outputs = isRecord(state.outputs) ? state.outputs : {};
  return Object.fromEntries(
    Object.entries(outputs).map(([name, o]) => {
      const output = isRecord(o) ? o : {};
      return [name, { value: output.value, sensitive: output.sensitive === true }];
    }),
  );
}

/**
 * The `sensitive_attributes` paths of a state instance (lists of `get_attr` / `index` steps)
 * as a nested mask.
 */
function sensitiveMask(paths: unknown): Record<string, unknown> {
  const mask: Record<string, unknown> = {};
  for (const path of Array.isArray(paths) ? paths : []) {
    const steps = (Array.isArray(path) ? path : []).filter(isRecord).map((step) => {
      const value = step.value;
      // An index step's value is a typed value: { value: 0, type: "number" }.
      return String(step.type === "index" && isRecord(value) ? value.value : value);
    });
    if (steps.length === 0) continue;
    let node: Record<string, unknown> | undefined = mask;
    for (const step of steps.slice(0, -1)) {
      if (node[step] === true) {
        node = undefined; // a whole enclosing value is sensitive already
        break;
      }
      if (!isRecord(node[step])) node[step] = {};
      node = node[step] as Record<string, unknown>;
    }
    if (node !== undefined) node[steps[steps.length - 1]] = true;
  }
  return mask;
}

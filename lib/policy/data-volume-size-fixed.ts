import { isRecord, PolicyRule, type SynthesizedElement } from "./policy-rule";

const CLAIM = /^kubernetes_persistent_volume_claim(_v\d+)?$/;

/** The attribute whose changes must be ignored, normalized (see {@link normalize}). */
const SIZE_PATH = "spec.0.resources.0.requests.storage";

/**
 * Every PVC ignores changes to its requested size (`lifecycle.ignore_changes` covering
 * `spec[0].resources[0].requests`): the size is fixed when the workspace is created. A
 * value that changes between builds would otherwise make Terraform resize the claim,
 * which many storage classes refuse, or replace it, which deletes the user's data.
 */
export class DataVolumeSizeFixed extends PolicyRule {
  readonly id = "data-volume-size-fixed";

  check(element: SynthesizedElement): string[] {
    if (element.kind !== "resource" || !CLAIM.test(element.type)) return [];
    const lifecycle = isRecord(element.body.lifecycle) ? element.body.lifecycle : {};
    const ignored = lifecycle.ignore_changes;
    if (ignored === "all") return [];
    const entries = Array.isArray(ignored) ? ignored.filter((e) => typeof e === "string") : [];
    const covered = entries.some((entry) => {
      const path = normalize(entry);
      return path === "all" || SIZE_PATH === path || SIZE_PATH.startsWith(`${path}.`);
    });
    if (covered) return [];
    return [
      `${element.address}: lifecycle.ignore_changes must cover spec[0].resources[0].requests, ` +
        `so that a changed size never resizes or replaces the claim (use lib/constructs/data-volume.ts)`,
    ];
  }
}

/** `spec[0].resources[0].requests["storage"]` → `spec.0.resources.0.requests.storage`. */
function normalize(entry: string): string {
  return entry
    .replace(/\s+/g, "")
    .replace(/\["([^"]*)"\]/g, ".$1")
    .replace(/\[(\d+)\]/g, ".$1");
}

import { referencesIn } from "./expressions";
import { type PolicyContext, PolicyRule, type SynthesizedElement } from "./policy-rule";

/**
 * Resources that must exist for a workspace's whole life: its data (PVCs) and its
 * identities (service accounts, role bindings, secrets such as tokens and kubeconfigs).
 */
const LIFETIME_RESOURCES =
  /^kubernetes_(persistent_volume_claim|service_account|role_binding|secret)(_v\d+)?$/;

/** Attributes of `data.coder_workspace` that change when a workspace stops. */
const STOP_SIGNALS = /^data\.coder_workspace\.[A-Za-z0-9_-]+\.(start_count|transition)$/;

/**
 * A PVC or an identity resource whose `count`/`for_each` follows the workspace's
 * start_count (or transition) would be destroyed by every stop: the user's data gone, a
 * fresh token on every start. They must have no such count (they die with the workspace,
 * when Coder destroys it). Followed through locals.
 */
export class IdentitiesSurviveStop extends PolicyRule {
  readonly id = "lifetime-resources-survive-stop";

  check(element: SynthesizedElement, context: PolicyContext): string[] {
    if (element.kind !== "resource" || !LIFETIME_RESOURCES.test(element.type)) return [];
    if (isSessionSecret(element) || isAgentTokenCopy(element)) return [];
    const reasons: string[] = [];
    for (const meta of ["count", "for_each"] as const) {
      const value = element.body[meta];
      if (value === undefined) continue;
      const signal = stopSignal(value, context, new Set());
      if (signal) {
        reasons.push(
          `${element.address}: its ${meta} follows ${signal}, so a workspace stop would destroy it; ` +
            `PVCs, service accounts, role bindings and secrets must outlive stops (give them no count)`,
        );
      }
    }
    return reasons;
  }
}

/**
 * An empty Opaque Secret holds no credential and no data: all it can be is a session object,
 * e.g. what a short-lived token is bound to (lib/constructs/session-token.ts), which must
 * die at each stop so that the stop revokes the token.
 */
function isSessionSecret(element: SynthesizedElement): boolean {
  const body = element.body;
  return (
    /^kubernetes_secret(_v\d+)?$/.test(element.type) &&
    body.type === "Opaque" &&
    body.data === undefined &&
    body.binary_data === undefined &&
    body.data_wo === undefined &&
    body.binary_data_wo === undefined
  );
}

/**
 * An Opaque Secret whose data is one key holding nothing but `coder_agent.<name>.token`
 * (lib/constructs/agent-token-secret.ts): a copy for the pod's secretKeyRef of a token that
 * lives in the agent's state, not an identity. It follows start_count so that a stopped
 * workspace leaves no token in the namespace; a stop loses nothing.
 */
function isAgentTokenCopy(element: SynthesizedElement): boolean {
  const body = element.body;
  if (!/^kubernetes_secret(_v\d+)?$/.test(element.type) || body.type !== "Opaque") return false;
  if (body.binary_data !== undefined || body.data_wo !== undefined) return false;
  const data = body.data;
  if (data === null || typeof data !== "object" || Array.isArray(data)) return false;
  const values = Object.values(data as Record<string, unknown>);
  return (
    values.length === 1 &&
    typeof values[0] === "string" &&
    /^\$\{coder_agent\.[A-Za-z_][A-Za-z0-9_-]*\.token\}$/.test(values[0])
  );
}

/** The stop-dependent reference `value` depends on (directly or through locals), if any. */
function stopSignal(value: unknown, context: PolicyContext, seen: Set<string>): string | undefined {
  for (const ref of referencesIn(value)) {
    const normalized = ref.replace(/\[[^\]]*\]/g, "");
    if (STOP_SIGNALS.test(normalized)) return normalized;
    const local = /^local\.([A-Za-z_][A-Za-z0-9_-]*)/.exec(normalized);
    if (local && !seen.has(local[1])) {
      seen.add(local[1]);
      const via = stopSignal(context.localValue(local[1]), context, seen);
      if (via) return `${via} (through local.${local[1]})`;
    }
  }
  return undefined;
}

/**
 * Rules Coder applies across resources when it reads a template's plan, which no single
 * provider call sees: a `coder_app`'s slug is unique per agent (real-world-facts §4; Coder's
 * provisioner refuses the build with "duplicate app slug").
 */
import { isRecord } from "./json";
import type { ApiViolation } from "./kubernetes-api";
import type { PlanResult } from "./plan-result";

/** Violations of Coder's cross-resource rules in `plan`. */
export function coderViolations(plan: PlanResult): ApiViolation[] {
  const agents = appAgents(plan.raw.configuration);
  const seen = new Map<string, string>();
  const violations: ApiViolation[] = [];
  for (const app of plan.resourceChanges) {
    if (app.mode !== "managed" || app.type !== "coder_app") continue;
    if (!app.actions.includes("create") && !app.actions.includes("update")) continue;
    const slug = app.after.slug;
    if (typeof slug !== "string") continue;
    const at = app.address.lastIndexOf("coder_app.");
    const instance = app.address.slice(0, at);
    const configAddress = `${instance.replace(/\[[^\]]*\]/g, "")}coder_app.${app.name}`;
    const key = `${instance}|${agents.get(configAddress) ?? "?"}|${slug}`;
    const first = seen.get(key);
    if (first !== undefined) {
      violations.push({
        address: app.address,
        message: `duplicate app slug, they must be unique per agent: ${JSON.stringify(slug)} (also ${first})`,
      });
    } else {
      seen.set(key, app.address);
    }
  }
  return violations;
}

/** The agent each configured coder_app refers to, by configuration address. */
function appAgents(configuration: unknown): Map<string, string> {
  const agents = new Map<string, string>();
  const walk = (module: unknown, prefix: string) => {
    if (!isRecord(module)) return;
    for (const resource of Array.isArray(module.resources)
      ? module.resources.filter(isRecord)
      : []) {
      if (resource.type !== "coder_app") continue;
      const expressions = isRecord(resource.expressions) ? resource.expressions : {};
      const agent = isRecord(expressions.agent_id) ? expressions.agent_id : {};
      const references = Array.isArray(agent.references) ? agent.references.map(String) : [];
      // Terraform lists `coder_agent.main.id` and `coder_agent.main`: the shortest is the agent.
      const [reference] = references.sort((a, b) => a.length - b.length);
      agents.set(`${prefix}${String(resource.address)}`, reference ?? "?");
    }
    const calls = isRecord(module.module_calls) ? module.module_calls : {};
    for (const [name, call] of Object.entries(calls)) {
      if (isRecord(call)) walk(call.module, `${prefix}module.${name}.`);
    }
  };
  walk(isRecord(configuration) ? configuration.root_module : undefined, "");
  return agents;
}

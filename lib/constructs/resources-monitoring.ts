/**
 * Coder's resource alerts (`coder_agent.resources_monitoring`): the agent reports memory and
 * volume usage, and Coder notifies the workspace owner when one goes over its threshold, so a
 * user hears about a filling disk before builds start failing. The thresholds are template
 * variables, in percent; the defaults follow Coder's documentation example.
 */
import type { Construct } from "../core/cdk";
import type { AgentResourcesMonitoring } from "../../.gen/providers/coder/agent";
import { TemplateVariable } from "../core/template-variable";
import { wholeNumberBetween } from "../core/validate";

/** `var.memory_alert_threshold` and `var.disk_alert_threshold`, declared on `scope`. */
export class ResourcesMonitoringVariables {
  public readonly memoryThreshold: TemplateVariable;
  public readonly diskThreshold: TemplateVariable;

  constructor(scope: Construct) {
    const percent = (name: string, what: string, defaultValue: number) =>
      new TemplateVariable(scope, name, {
        type: "number",
        default: defaultValue,
        nullable: false,
        description: `Coder alerts the workspace owner when ${what} is above this percentage (1-100).`,
        rules: [wholeNumberBetween(1, 100)],
      });
    this.memoryThreshold = percent("memory_alert_threshold", "the workspace's memory use", 80);
    this.diskThreshold = percent("disk_alert_threshold", "the use of the workspace's volume", 90);
  }

  /** Memory, and the volume mounted at `volumePath` (the home or data volume). */
  public monitoring(volumePath: string): AgentResourcesMonitoring {
    return {
      memory: { enabled: true, threshold: this.memoryThreshold.numberValue },
      volume: [{ enabled: true, path: volumePath, threshold: this.diskThreshold.numberValue }],
    };
  }
}

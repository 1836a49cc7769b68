import type { AgentMetadata } from "../../.gen/providers/coder/agent";
import { escapeTemplateLiteral } from "../core/escape";

/**
 * Presets for the agent's metadata items (the live stats on the workspace
 * page). Each returns one `metadata` block; keys sort the items in the UI.
 */
export function cpuUsage(key = "0_cpu_usage"): AgentMetadata {
  return item("CPU Usage", key, "coder stat cpu", 10);
}

export function ramUsage(key = "1_ram_usage"): AgentMetadata {
  return item("RAM Usage", key, "coder stat mem", 10);
}

/** Disk usage of the volume mounted at `path` (a shell word; `${HOME}` stays literal). */
export function diskUsage(
  displayName: string,
  path = "${HOME}",
  key = "3_home_disk",
): AgentMetadata {
  return item(displayName, key, escapeTemplateLiteral(`coder stat disk --path ${path}`), 60);
}

export function hostCpuUsage(key = "4_cpu_usage_host"): AgentMetadata {
  return item("CPU Usage (Host)", key, "coder stat cpu --host", 10);
}

export function hostMemoryUsage(key = "5_mem_usage_host"): AgentMetadata {
  return item("Memory Usage (Host)", key, "coder stat mem --host", 10);
}

/** The host's 1-minute load average per core, two decimals. */
export function hostLoadAverage(key = "6_load_host"): AgentMetadata {
  const script = `echo "$(cut -d' ' -f1 /proc/loadavg) $(nproc)" | awk '{ printf "%0.2f", $1/$2 }'`;
  return item("Load Average (Host)", key, escapeTemplateLiteral(script), 60);
}

/** The usual set: CPU, RAM, the data disk, and the host's CPU, memory and load. */
export function standardMetadata(diskDisplayName: string): AgentMetadata[] {
  return [
    cpuUsage(),
    ramUsage(),
    diskUsage(diskDisplayName),
    hostCpuUsage(),
    hostMemoryUsage(),
    hostLoadAverage(),
  ];
}

/** A metadata item; `timeout` is 1 s as the stats are cheap. */
export function item(
  displayName: string,
  key: string,
  script: string,
  interval: number,
  timeout = 1,
): AgentMetadata {
  return { displayName, key, script, interval, timeout };
}

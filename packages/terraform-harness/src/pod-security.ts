/**
 * The Pod Security Admission level a planned pod spec meets (kubernetes
 * staging/src/k8s.io/pod-security-admission policy checks, as the Pod Security Standards
 * define them): `privileged`, `baseline` or `restricted`. The spec is the kubernetes
 * provider's (snake_case blocks), with the zero values the provider sends for unset fields
 * of a security_context block, so a container's `run_as_non_root = false` overrides the
 * pod's true here as it does in the cluster.
 */
import { isRecord } from "./json";

/**
 * Capabilities the Pod Security "baseline" level allows a container to add (the Pod Security
 * Standards). The harness keeps its own list: it stands for the cluster, so it does not take
 * the template's word for what the cluster admits.
 */
const BASELINE_CAPABILITIES = [
  "AUDIT_WRITE",
  "CHOWN",
  "DAC_OVERRIDE",
  "FOWNER",
  "FSETID",
  "KILL",
  "MKNOD",
  "NET_BIND_SERVICE",
  "SETFCAP",
  "SETGID",
  "SETPCAP",
  "SETUID",
  "SYS_CHROOT",
];

export type PodSecurityLevel = "privileged" | "baseline" | "restricted";

/** Volume types restricted allows (the provider's block names). */
const RESTRICTED_VOLUMES = [
  "config_map",
  "csi",
  "downward_api",
  "empty_dir",
  "ephemeral",
  "persistent_volume_claim",
  "projected",
  "secret",
];

type Obj = Record<string, unknown>;
const one = (value: unknown): Obj | undefined =>
  Array.isArray(value) ? (isRecord(value[0]) ? value[0] : undefined) : undefined;
const list = (value: unknown): Obj[] => (Array.isArray(value) ? value.filter(isRecord) : []);
const set = (value: unknown) => value !== null && value !== undefined && value !== "";

/** The level `pod` meets, and what keeps it from the next stricter one. */
export function podSecurityLevel(pod: Obj): { level: PodSecurityLevel; belowNext: string[] } {
  const baseline = baselineProblems(pod);
  if (baseline.length > 0) return { level: "privileged", belowNext: baseline };
  const restricted = restrictedProblems(pod);
  if (restricted.length > 0) return { level: "baseline", belowNext: restricted };
  return { level: "restricted", belowNext: [] };
}

function containersOf(pod: Obj): { name: string; container: Obj }[] {
  return [...list(pod.init_container), ...list(pod.container)].map((container) => ({
    name: String(container.name ?? ""),
    container,
  }));
}

function baselineProblems(pod: Obj): string[] {
  const problems: string[] = [];
  for (const field of ["host_network", "host_pid", "host_ipc"]) {
    if (pod[field] === true) problems.push(`${field} is true (host namespaces)`);
  }
  for (const volume of list(pod.volume)) {
    if (one(volume.host_path)) problems.push(`volume ${String(volume.name)} is a hostPath`);
  }
  const podContext = one(pod.security_context);
  if (one(podContext?.seccomp_profile)?.type === "Unconfined") {
    problems.push("the pod's seccomp profile is Unconfined");
  }
  for (const { name, container } of containersOf(pod)) {
    const context = one(container.security_context);
    if (context?.privileged === true) problems.push(`container ${name} is privileged`);
    const added = one(context?.capabilities)?.add;
    for (const capability of Array.isArray(added) ? added : []) {
      if (!(BASELINE_CAPABILITIES as readonly string[]).includes(String(capability))) {
        problems.push(`container ${name} adds capability ${String(capability)}`);
      }
    }
    if (one(context?.seccomp_profile)?.type === "Unconfined") {
      problems.push(`container ${name}'s seccomp profile is Unconfined`);
    }
    if (context?.proc_mount === "Unmasked")
      problems.push(`container ${name} has procMount Unmasked`);
    for (const port of list(container.port)) {
      if (set(port.host_port) && Number(port.host_port) !== 0) {
        problems.push(`container ${name} uses host port ${String(port.host_port)}`);
      }
    }
  }
  return problems;
}

function restrictedProblems(pod: Obj): string[] {
  const problems: string[] = [];
  for (const volume of list(pod.volume)) {
    const kinds = Object.keys(volume).filter(
      (k) => k !== "name" && Array.isArray(volume[k]) && (volume[k] as unknown[]).length > 0,
    );
    for (const kind of kinds) {
      if (!RESTRICTED_VOLUMES.includes(kind)) {
        problems.push(`volume ${String(volume.name)} has type ${kind}`);
      }
    }
  }
  const podContext = one(pod.security_context);
  const podNonRoot = podContext?.run_as_non_root === true;
  const podSeccomp = one(podContext?.seccomp_profile)?.type;
  if (set(podContext?.run_as_user) && Number(podContext?.run_as_user) === 0) {
    problems.push("the pod runs as user 0");
  }
  for (const { name, container } of containersOf(pod)) {
    const context = one(container.security_context);
    if (context?.allow_privilege_escalation !== false) {
      problems.push(`container ${name} allows privilege escalation`);
    }
    const nonRoot = context?.run_as_non_root;
    if (nonRoot === false || (nonRoot !== true && !podNonRoot)) {
      problems.push(`container ${name} does not set runAsNonRoot true (or overrides the pod's)`);
    }
    if (set(context?.run_as_user) && Number(context?.run_as_user) === 0) {
      problems.push(`container ${name} runs as user 0`);
    }
    const seccomp = one(context?.seccomp_profile)?.type ?? podSeccomp;
    if (seccomp !== "RuntimeDefault" && seccomp !== "Localhost") {
      problems.push(`container ${name} has no RuntimeDefault or Localhost seccomp profile`);
    }
    const capabilities = one(context?.capabilities);
    const dropped = Array.isArray(capabilities?.drop) ? capabilities.drop.map(String) : [];
    if (!dropped.includes("ALL")) problems.push(`container ${name} does not drop ALL capabilities`);
    const added = Array.isArray(capabilities?.add) ? capabilities.add.map(String) : [];
    for (const capability of added) {
      if (capability !== "NET_BIND_SERVICE") {
        problems.push(`container ${name} adds capability ${capability}`);
      }
    }
  }
  return problems;
}

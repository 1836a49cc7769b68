/**
 * The subset of `runArgs` (docker run flags) that devcontainer-builder maps onto its
 * `runtime` and `hostRequirements` fields, for `npm run preview`. Everything else is
 * reported as a warning, as the service does; no host, network or device flag can apply
 * to a Kubernetes pod.
 *
 * Sizes use Docker's units (b, k, m, g; 1024-based), as `docker run` reads them.
 */

/** What the known flags ask for. Absent fields were not given. */
export interface RunArgsRuntime {
  readonly capAdd: readonly string[];
  readonly privileged: boolean;
  readonly init: boolean;
  readonly seccompUnconfined: boolean;
  readonly shmSizeBytes?: number;
  readonly hostname?: string;
  /** `--add-host name:ip`, grouped by ip in order of appearance. */
  readonly hostAliases: readonly { readonly ip: string; readonly hostnames: readonly string[] }[];
  /** `-e/--env K=V`, in order. */
  readonly env: readonly (readonly [string, string])[];
  readonly cpus?: number;
  readonly memoryBytes?: number;
  readonly warnings: readonly string[];
}

/** Flags that take a value, by every spelling. */
const VALUE_FLAGS: Record<string, string> = {
  "--cap-add": "cap-add",
  "--security-opt": "security-opt",
  "--shm-size": "shm-size",
  "--hostname": "hostname",
  "-h": "hostname",
  "--add-host": "add-host",
  "-e": "env",
  "--env": "env",
  "--cpus": "cpus",
  "--memory": "memory",
  "-m": "memory",
  "--network": "network",
  "--net": "network",
  "--device": "device",
  "--gpus": "gpus",
};

/** Flags that cannot apply to a pod: named in the warning. */
const UNSUPPORTED = new Set(["network", "device", "gpus"]);

const DOCKER_UNITS: Record<string, number> = { "": 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** Docker's size syntax (`512m`, `2g`, `1024`), in bytes; undefined when not one. */
export function dockerSizeBytes(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([bkmg]?)b?$/i.exec(text.trim());
  return m ? Math.floor(Number(m[1]) * DOCKER_UNITS[m[2].toLowerCase()]) : undefined;
}

/** Parses `runArgs`; a non-list or non-string entries become warnings. */
export function parseRunArgs(runArgs: unknown): RunArgsRuntime {
  const warnings: string[] = [];
  const capAdd: string[] = [];
  const env: [string, string][] = [];
  const aliases = new Map<string, string[]>();
  let privileged = false;
  let init = false;
  let seccompUnconfined = false;
  let shmSizeBytes: number | undefined;
  let hostname: string | undefined;
  let cpus: number | undefined;
  let memoryBytes: number | undefined;

  if (runArgs !== undefined && !Array.isArray(runArgs)) {
    warnings.push("runArgs is not a list; it is ignored.");
  }
  const args = Array.isArray(runArgs) ? runArgs : [];
  for (let i = 0; i < args.length; i++) {
    const raw: unknown = args[i];
    if (typeof raw !== "string") {
      warnings.push(`runArgs entry ${JSON.stringify(raw)} is not a string; it is ignored.`);
      continue;
    }
    if (raw === "--privileged") {
      privileged = true;
      continue;
    }
    if (raw === "--init") {
      init = true;
      continue;
    }
    const eq = raw.indexOf("=");
    const flag = raw.startsWith("--") && eq > 0 ? raw.slice(0, eq) : raw;
    const name = VALUE_FLAGS[flag];
    if (name === undefined) {
      warnings.push(`runArgs ${raw} is not supported on Kubernetes; it is ignored.`);
      continue;
    }
    let value: string | undefined;
    if (flag !== raw) value = raw.slice(eq + 1);
    else if (typeof args[i + 1] === "string") value = args[++i] as string;
    if (value === undefined) {
      warnings.push(`runArgs ${raw} has no value; it is ignored.`);
      continue;
    }
    if (UNSUPPORTED.has(name)) {
      warnings.push(`runArgs ${flag} ${value} is not supported on Kubernetes; it is ignored.`);
      continue;
    }
    switch (name) {
      case "cap-add":
        capAdd.push(...value.split(",").filter((c) => c !== ""));
        break;
      case "security-opt":
        if (value.replace(":", "=") === "seccomp=unconfined") seccompUnconfined = true;
        else warnings.push(`runArgs --security-opt ${value} is not supported; it is ignored.`);
        break;
      case "shm-size":
        shmSizeBytes = dockerSizeBytes(value);
        if (shmSizeBytes === undefined)
          warnings.push(`runArgs --shm-size ${value} is not a size; it is ignored.`);
        break;
      case "hostname":
        if (value.includes("${")) {
          warnings.push(`runArgs --hostname ${value} contains a variable; it is ignored.`);
        } else hostname = value;
        break;
      case "add-host": {
        const at = value.lastIndexOf(":");
        if (at <= 0) {
          warnings.push(`runArgs --add-host ${value} is not host:ip; it is ignored.`);
          break;
        }
        const [host, ip] = [value.slice(0, at), value.slice(at + 1)];
        aliases.set(ip, [...(aliases.get(ip) ?? []), host]);
        break;
      }
      case "env": {
        const at = value.indexOf("=");
        // `-e NAME` alone passes the host's value, and there is no host: nothing to set.
        if (at > 0) env.push([value.slice(0, at), value.slice(at + 1)]);
        else warnings.push(`runArgs -e ${value} takes a value from the host; it is ignored.`);
        break;
      }
      case "cpus":
        cpus = Number.isFinite(Number(value)) && value.trim() !== "" ? Number(value) : undefined;
        if (cpus === undefined)
          warnings.push(`runArgs --cpus ${value} is not a number; it is ignored.`);
        break;
      case "memory":
        memoryBytes = dockerSizeBytes(value);
        if (memoryBytes === undefined)
          warnings.push(`runArgs --memory ${value} is not a size; it is ignored.`);
        break;
    }
  }
  return {
    capAdd,
    privileged,
    init,
    seccompUnconfined,
    ...(shmSizeBytes !== undefined ? { shmSizeBytes } : {}),
    ...(hostname !== undefined ? { hostname } : {}),
    hostAliases: [...aliases].map(([ip, hostnames]) => ({ ip, hostnames })),
    env,
    ...(cpus !== undefined ? { cpus } : {}),
    ...(memoryBytes !== undefined ? { memoryBytes } : {}),
    warnings,
  };
}

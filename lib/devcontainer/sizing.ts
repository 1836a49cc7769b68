/**
 * Apply time: the workspace container's requests and limits, the data volume's size
 * and the "Resources (reserved / limit)" summary, from the Dev Container's
 * `hostRequirements` and `customizations.kubernetes` and the workspace parameters.
 *
 * The rules, in short (docs/devcontainer-sizing.md has the long form):
 * - Requests are what a repository *reserves*: `customizations.kubernetes` requests
 *   when any valid request or limit is given, else `hostRequirements.cpus`/`memory`,
 *   else 250m / 512Mi. CPU and memory reservations are capped by max_cpu/max_memory.
 * - Limits are the larger of the reservation and the parameter, unless the
 *   repository gives a limit (which is then only raised to the request).
 * - The disk is the parameter, or the repository's storage when that is larger, up to
 *   max_disk (the parameter is the user's own and never lowered).
 * - Ephemeral storage passes through, its request and limit capped by max_ephemeral_storage.
 * - Extended resources (GPUs, …) are limits (Kubernetes reserves them: request = limit), only
 *   the names max_extended_resources lists, each up to its most; hugepages up to max_memory.
 * Every value a repository gives that cannot be used becomes a warning naming the
 * field and the value; none of them can fail the plan.
 */
import { Construct } from "../core/cdk";
import { Expr, hcl } from "../core/expr";
import {
  BINARY_SUFFIXES,
  DEFAULT_CPU_REQUEST,
  DEFAULT_CPU_REQUEST_CORES,
  DEFAULT_MEMORY_REQUEST,
  DEFAULT_MEMORY_REQUEST_BYTES,
  EXTENDED_RESOURCE_LONG_PREFIX_PATTERN,
  EXTENDED_RESOURCE_REQUESTS_PREFIX,
  GIB,
  HOST_REQUIREMENTS_GPU_RESOURCE,
  KUBERNETES_IO_RESOURCE_PATTERN,
  LABEL_KEY_LONG_PREFIX_PATTERN,
  QUANTITY_PATTERN,
  QUANTITY_SUFFIX_FACTORS,
  RESOURCE_NAME_PATTERN,
  STANDARD_RESOURCE_NAMES,
} from "./kubernetes-quantities";
import type { DevcontainerKubernetesCustomizations } from "./kubernetes-customizations";
import { NamedLocals } from "../core/named-locals";
import {
  DEFAULT_MAX_DISK_GIB,
  DEFAULT_MAX_EPHEMERAL_STORAGE_GIB,
  DEFAULT_MAX_EXTENDED_RESOURCES,
} from "./quantity-caps";

export interface DevcontainerSizingProps {
  /** customizations.kubernetes, parsed. */
  readonly customizations: DevcontainerKubernetesCustomizations;
  /**
   * The data source's `host_requirements` object (`cpus`, `memory_bytes`,
   * `storage_bytes`, `gpu_json`), or null (stopped workspace, old service).
   */
  readonly hostRequirements: Expr<unknown>;
  /** The CPU parameter, in cores (as Coder gives a parameter: a string). */
  readonly cpu: Expr<string>;
  /** The Memory parameter, in GiB (a string). */
  readonly memory: Expr<string>;
  /** The Disk size parameter, in GiB (a string). */
  readonly diskSize: Expr<string>;
  /** var.max_cpu: the most cores a repository may reserve. */
  readonly maxCpu: Expr<number>;
  /** var.max_memory: the most GiB a repository may reserve. */
  readonly maxMemory: Expr<number>;
  /**
   * Whether the configuration's runArgs set `--memory` (`-m`), which the service reports as
   * host_requirements.memory_bytes: as for `docker run`, that is the container's limit, not a
   * reservation (docs/templates/devcontainer.md). @default false
   */
  readonly memoryIsLimit?: Expr<boolean>;
  /**
   * var.max_disk: the most GiB a repository's storage may raise the disk to.
   * @default DEFAULT_MAX_DISK_GIB
   */
  readonly maxDisk?: Expr<number>;
  /**
   * var.max_ephemeral_storage: the most GiB of ephemeral-storage request and limit.
   * @default DEFAULT_MAX_EPHEMERAL_STORAGE_GIB
   */
  readonly maxEphemeralStorage?: Expr<number>;
  /**
   * var.max_extended_resources: map of extended resource name → the most a workspace gets;
   * other names are dropped. @default DEFAULT_MAX_EXTENDED_RESOURCES
   */
  readonly maxExtendedResources?: Expr<Record<string, number>>;
}

/** A named local's expression, of a map from names to `T`. */
type ByName<T> = Expr<Record<string, T>>;

/** The text of one of {@link QuantityTexts}: `name` is a key of its map. */
const text = (texts: ByName<string>, name: string) => hcl<string>`${texts}[${name}]`;
const lookupAmount = (map: ByName<number>, name: string) =>
  hcl<number>`lookup(${map}, ${name}, null)`;
/** The API server's quantity and resource name syntax, as every check reads it. */
interface QuantitySyntax {
  readonly pattern: Expr<string>;
  readonly namePattern: Expr<string>;
  /** Each suffix's factor: a quantity's amount is its number times its suffix's factor. */
  readonly factors: ByName<number>;
}
/** customizations.kubernetes' requests or limits as given, why each is refused, and those kept. */
interface GivenSide {
  readonly given: Expr<unknown>;
  readonly problems: ByName<string>;
  readonly valid: ByName<string>;
  readonly amounts: ByName<number>;
}
/** customizations.kubernetes' usable requests, limits and storage, and the warnings for the rest. */
interface KubernetesResources {
  readonly requests: ByName<string>;
  readonly limits: ByName<string>;
  readonly requestAmounts: ByName<number>;
  readonly limitAmounts: ByName<number>;
  readonly storage: Expr<string>;
  readonly storageAmount: Expr<number>;
  readonly invalidWarnings: Expr<string[]>;
  readonly k8sSet: Expr<boolean>;
}
/**
 * Every size the template derives (hostRequirements' numbers, the operator's maxima) as the
 * text Kubernetes and the user read, by name: `byteTexts` for bytes, `cpuTexts` for cores.
 */
interface QuantityTexts {
  readonly byteTexts: ByName<string>;
  readonly cpuTexts: ByName<string>;
}
/** hostRequirements' usable numbers, and the warnings for the rest. */
interface HostRequirements extends QuantityTexts {
  readonly hrCpus: Expr<number>;
  readonly hrMemory: Expr<number>;
  readonly hrStorage: Expr<number>;
  readonly hrGpu: Expr<string>;
  readonly hrGpuRequested: Expr<boolean>;
  readonly hrInvalid: Expr<string[]>;
  readonly hrIgnored: Expr<string[]>;
}
/** What the CPU and the memory reservation differ in; the rest is decided once for both. */
interface ReservedQuantity {
  /** Kubernetes' name of the resource; its locals are `<name>_request`, its maximum `max_<name>`. */
  readonly name: "cpu" | "memory";
  /** What amounts count: cores, or bytes (whose parameter and maximum are GiB). */
  readonly unit: "cores" | "bytes";
  /** The parameter (cores or GiB): the limit when the repository reserves less. */
  readonly parameter: Expr<string>;
  /** The operator's maximum (cores or GiB) of what a repository reserves. */
  readonly max: Expr<number>;
  /** hostRequirements' field (`cpus`, `memory`) and its amount, or null. */
  readonly hrField: string;
  readonly hrAmount: Expr<number>;
  /** hostRequirements' amount as a warning shows it. */
  readonly hrShown: Expr<string>;
  /** {@link QuantityTexts} of the unit, holding `hr_<hrField>` and `max_<name>`. */
  readonly texts: ByName<string>;
  /** The request when nothing is reserved, as a quantity and as an amount. */
  readonly defaultRequest: string;
  readonly defaultAmount: number;
  /** Why the reservation comes from where it does (above `required_<name>`). */
  readonly requiredWhy: string;
  /** Whether hostRequirements' amount is the limit, not a reservation (runArgs `--memory`). */
  readonly hrIsLimit?: Expr<boolean>;
}
/** One reservation's request and limit, and its warning when the maximum caps it. */
interface Reservation {
  readonly request: Expr<string>;
  readonly limitRaised: Expr<boolean>;
  readonly limit: Expr<string>;
  readonly capWarning: Expr<string[]>;
}
/** What a limit from hostRequirements adds: the request without a reservation, an amount to the
 * smallest, a branch before the limit's last one. */
interface HrLimit {
  readonly unreserved: Expr<string> | string;
  readonly lowest: (a: number, b: Expr<number>) => Expr<number>;
  readonly limit: (otherwise: Expr<string>) => Expr<string>;
}
interface Reservations {
  readonly cpu: Reservation;
  readonly memory: Reservation;
  readonly capWarnings: Expr<string[]>;
}
interface Disk {
  readonly diskCapped: Expr<boolean>;
  readonly diskSize: Expr<string>;
  readonly storageWarnings: Expr<string[]>;
}
interface EphemeralStorage {
  readonly ephemeralRequestCapped: Expr<boolean>;
  readonly ephemeralRequest: Expr<string>;
  readonly ephemeralLimitCapped: Expr<boolean>;
  readonly ephemeralLimit: Expr<string>;
  readonly raisedWarnings: Expr<string[]>;
}
/** The extended resources and hugepages that pass, and the GPU hostRequirements asks for. */
interface ExtendedResources {
  readonly extendedNames: Expr<string[]>;
  readonly extendedLimits: ByName<string>;
  readonly extendedWarnings: Expr<string[]>;
  readonly gpuLimits: ByName<string>;
  readonly allowedNames: Expr<string>;
  readonly gpuAllowed: Expr<boolean>;
}
interface ContainerResources {
  readonly resourceRequests: ByName<string>;
  readonly resourceLimits: ByName<string>;
}

/** The container resources and disk size, as named locals. */
export class DevcontainerSizing extends Construct {
  private readonly locals: NamedLocals;
  /** The props, with the defaults in place. */
  private readonly props: Required<DevcontainerSizingProps>;
  /** `local.resource_requests`: the container's `resources.requests` map (no nulls). */
  public readonly requests: Expr<Record<string, string>>;
  /** `local.resource_limits`: the container's `resources.limits` map (no nulls). */
  public readonly limits: Expr<Record<string, string>>;
  /** `local.disk_size`: the data volume's `requests.storage`, e.g. "10Gi". */
  public readonly diskSize: Expr<string>;
  /** `local.resources_summary`: the "Resources (reserved / limit)" text. */
  public readonly summary: Expr<string>;
  /** `local.resource_warnings`: list of warning lines. */
  public readonly warnings: Expr<string[]>;

  constructor(scope: Construct, id: string, props: DevcontainerSizingProps) {
    super(scope, id);
    this.locals = new NamedLocals(this, "");
    this.props = {
      ...props,
      memoryIsLimit: props.memoryIsLimit ?? Expr.of<boolean>(false),
      maxDisk: props.maxDisk ?? Expr.of<number>(DEFAULT_MAX_DISK_GIB),
      maxEphemeralStorage:
        props.maxEphemeralStorage ?? Expr.of<number>(DEFAULT_MAX_EPHEMERAL_STORAGE_GIB),
      maxExtendedResources:
        props.maxExtendedResources ??
        Expr.of<Record<string, number>>({ ...DEFAULT_MAX_EXTENDED_RESOURCES }),
    };
    const syntax = this.quantitySyntax();
    const given = this.kubernetesResources(syntax);
    const hr = this.hostRequirements(given, syntax);
    const reserved = this.reservations(given, hr);
    const disk = this.disk(given, hr);
    const ephemeral = this.ephemeralStorage(given, reserved, hr);
    const extended = this.extendedResources(given, hr);
    const capped = this.quantityCapWarnings(given, hr, disk, ephemeral, extended);
    const container = this.containerResources(reserved, ephemeral, extended);
    const summary = this.resourcesSummary(given, hr, reserved, disk, extended, container);
    const warnings = this.warningLines(given, hr, reserved, capped, disk, ephemeral, extended);

    this.requests = container.resourceRequests;
    this.limits = container.resourceLimits;
    this.diskSize = disk.diskSize;
    this.summary = summary;
    this.warnings = warnings;
  }

  /** The quantity syntax and suffix factors, written once for every check. */
  private quantitySyntax(): QuantitySyntax {
    const { locals } = this;
    const pattern = locals.add<string>(
      "quantity_pattern",
      QUANTITY_PATTERN,
      "Every quantity check reads the API server's quantity syntax: it is written once, here.",
    );
    const namePattern = locals.add<string>(
      "resource_name_pattern",
      RESOURCE_NAME_PATTERN,
      "Every resource name is checked as the API server checks one: written once, here.",
    );
    const factors = locals.add<Record<string, number>>(
      "quantity_factors",
      hcl`${Object.fromEntries(Object.entries(QUANTITY_SUFFIX_FACTORS).map(([suffix, factor]) => [suffix, Expr.number(factor)]))}`,
      "Quantities are compared as numbers: each suffix's factor turns one into bytes or cores.",
    );
    return { pattern, namePattern, factors };
  }

  /**
   * customizations.kubernetes' requests or limits, written once for both: each entry parsed,
   * why the API server would refuse it, the entries it accepts and their amounts.
   */
  private givenSide(
    { pattern, namePattern, factors }: QuantitySyntax,
    side: "request" | "limit",
  ): GivenSide {
    const { locals, props } = this;
    const given = side === "request" ? props.customizations.requests : props.customizations.limits;
    // Each given quantity parsed once, its number and suffix (null when it does not parse),
    // and its amount (null when it has none): its problem tests them many ways.
    const parts = locals.add<Record<string, string[]>>(
      `k8s_${side}_given_parts`,
      hcl`{ for name, given in ${given} : name => try(regex(${pattern}, given.value), null) }`,
      `Each ${side} is parsed once here; null marks one the API server would refuse to parse.`,
    );
    const givenAmounts = locals.add<Record<string, number>>(
      `k8s_${side}_given_amounts`,
      hcl`{ for name, parts in ${parts} : name => try(tonumber(parts[0]) * ${factors}[parts[1]], null) }`,
      `The problems test a ${side}'s amount several ways: it is computed once.`,
    );
    // Why the API server would refuse a resource, or "" (pkg/apis/core/validation): a name
    // that is not qualified (a domain over 253 characters included) or holds "..", a
    // kubernetes.io name that is not standard, an extended resource name that starts with
    // "requests." or whose "requests."-prefixed quota name would not be qualified (a domain
    // over 244 characters), a quantity that does not parse, an extended resource that is not
    // a whole number, or hugepages that are not a positive multiple of their page size.
    // (A zero cpu or memory limit is no limit to the kubelet: the container would run unbounded.)
    const parses = hcl`${parts}[name] != null`;
    const amountOf = hcl`${givenAmounts}[name]`;
    const zeroLimit = hcl`contains(["cpu", "memory"], name) && try(${amountOf} == 0, false)
      ? "invalid quantity (a zero limit is no limit to Kubernetes)" : ""`;
    const problem = hcl`(!can(regex(${namePattern}, name)) || strcontains(name, "..")
          || can(regex(${LABEL_KEY_LONG_PREFIX_PATTERN}, name))
        ? "invalid resource name"
        : can(regex(${KUBERNETES_IO_RESOURCE_PATTERN}, name))
        ? "invalid resource name (kubernetes.io names are reserved for standard resources)"
        : startswith(name, ${EXTENDED_RESOURCE_REQUESTS_PREFIX})
        ? "invalid resource name (the prefix \"requests.\" is reserved for resource quotas)"
        : can(regex(${EXTENDED_RESOURCE_LONG_PREFIX_PATTERN}, name))
        ? "invalid resource name (an extended resource's domain may have at most 244 characters)"
        : !${parses} ? "invalid quantity"
        : startswith(name, "hugepages-")
        ? (try(${amountOf} > 0 && ${amountOf} % (tonumber(regex("^hugepages-([0-9]+)", name)[0]) * ${factors}[regex("([KMG]i)$", name)[0]]) == 0, false)
          ? (try(${amountOf} > ${props.maxMemory} * ${GIB}, false)
            ? format("more than max_memory (%s GiB): hugepages are memory the node sets aside", tostring(${props.maxMemory}))
            : "")
          : "invalid quantity (hugepages must be a positive multiple of the page size)")
        : strcontains(name, "/")
        ? (try(${amountOf} == floor(${amountOf}), false) ? "" : "invalid quantity (an extended resource must be a whole number)")
        : ${side === "limit" ? zeroLimit : ""})`;
    const problems = locals.add<Record<string, string>>(
      `k8s_${side}_problems`,
      hcl`{ for name, given in ${given} : name => ${problem} }`,
      side === "request"
        ? "The API server would refuse the whole pod for one bad request: each is checked beforehand."
        : "As for requests, and a zero cpu or memory limit would be no limit at all to the kubelet.",
    );
    const valid = locals.add<Record<string, string>>(
      `k8s_${side}s`,
      hcl`{ for name, given in ${given} : name => given.value if ${problems}[name] == "" }`,
      `Only the ${side}s without a problem reach the pod; the others become warnings.`,
    );
    const amounts = locals.add<Record<string, number>>(
      `k8s_${side}_amounts`,
      hcl`{ for name, quantity in ${valid} :
        name => tonumber(regex(${pattern}, quantity)[0]) * ${factors}[regex(${pattern}, quantity)[1]] }`,
      side === "request"
        ? "Requests are compared with limits and the operator's maxima as numbers, not text."
        : "Limits are compared with requests and the operator's maxima as numbers, not text.",
    );
    return { given, problems, valid, amounts };
  }

  /** customizations.kubernetes: the valid requests, limits and storage, and the warnings for the rest. */
  private kubernetesResources(syntax: QuantitySyntax): KubernetesResources {
    const { locals, props } = this;
    const { pattern, factors } = syntax;
    const request = this.givenSide(syntax, "request");
    const limit = this.givenSide(syntax, "limit");
    const k8s = props.customizations;
    const storage = locals.add<string>(
      "k8s_storage",
      hcl`can(regex(${pattern}, ${k8s.storage}.value)) ? ${k8s.storage}.value : null`,
      "Only a storage quantity that parses can size the PVC: the API server refuses the rest.",
    );
    const storageAmount = locals.add<number>(
      "k8s_storage_bytes",
      hcl`try(tonumber(regex(${pattern}, ${storage})[0]) * ${factors}[regex(${pattern}, ${storage})[1]], null)`,
      "The storage is compared with the disk parameter and max_disk as a number of bytes.",
    );
    const invalidEntries = (section: string, { given, problems }: GivenSide) =>
      hcl`[for name, given in ${given} :
        format("customizations.kubernetes resources.%s[%s] = %s: %s, ignored",
          ${section}, jsonencode(name), given.json, ${problems}[name])
        if ${problems}[name] != ""]`;
    const invalidWarnings = locals.add<string[]>(
      "k8s_invalid_resource_warnings",
      hcl`concat(
        ${invalidEntries("requests", request)},
        ${invalidEntries("limits", limit)},
        [for json in ${k8s.rejectedStorage} : format("customizations.kubernetes storage = %s: invalid quantity, ignored", json)],
        try(${k8s.storage}.value, null) != null && ${storage} == null
          ? [format("customizations.kubernetes storage = %s: invalid quantity, ignored", ${k8s.storage}.json)]
          : []
      )`,
    );
    const k8sSet = locals.add<boolean>(
      "k8s_resources_set",
      hcl`length(${request.valid}) + length(${limit.valid}) > 0`,
      "Any valid request or limit makes customizations.kubernetes win over hostRequirements.",
    );
    return {
      requests: request.valid,
      limits: limit.valid,
      requestAmounts: request.amounts,
      limitAmounts: limit.amounts,
      storage,
      storageAmount,
      invalidWarnings,
      k8sSet,
    };
  }

  /** hostRequirements: numbers or null, whatever the data source holds. */
  private hostRequirements(
    { k8sSet }: KubernetesResources,
    { factors }: QuantitySyntax,
  ): HostRequirements {
    const { locals, props } = this;
    const hr = props.hostRequirements;
    const hrGiven = locals.add<Record<string, number>>(
      "hr_given",
      hcl`{
        cpus = try(tonumber(${hr}.cpus), null),
        memory_bytes = try(tonumber(${hr}.memory_bytes), null),
        storage_bytes = try(tonumber(${hr}.storage_bytes), null),
      }`,
      "A requirement must be positive: zero or less would be a request Kubernetes rejects.",
    );
    const positive = (field: string, minimum: number) =>
      hcl`try(${hrGiven}[${field}] >= ${minimum}, false) ? ${hrGiven}[${field}] : null`;
    const hrCpus = locals.add<number>(
      "hr_cpus",
      hcl`try(${hrGiven}.cpus > 0, false) ? ${hrGiven}.cpus : null`,
      "A count of CPUs must be positive to reserve anything; 0 or less means none was asked for.",
    );
    const hrMemory = locals.add<number>(
      "hr_memory_bytes",
      positive("memory_bytes", 1),
      "A byte count must be at least one: zero or less would be a request Kubernetes rejects.",
    );
    const hrStorage = locals.add<number>(
      "hr_storage_bytes",
      positive("storage_bytes", 1),
      "A byte count must be at least one: zero or less would be a request Kubernetes rejects.",
    );
    const hrGpu = locals.add<string>(
      "hr_gpu_json",
      hcl`try(tostring(${hr}.gpu_json), null)`,
      "hostRequirements.gpu is a bool, a string or an object, so it arrives as JSON text.",
    );
    const hrGpuRequested = locals.add<boolean>(
      "hr_gpu_requested",
      hcl`try(jsondecode(${hrGpu}) == true || can(keys(jsondecode(${hrGpu}))), false)`,
      'gpu is true, false, "optional" or {cores, memory}: only true and an object ask for a GPU.',
    );
    const hrInvalid = locals.add<string[]>(
      "hr_invalid_warnings",
      hcl`concat(
        ${hrGiven}.cpus != null && ${hrCpus} == null ? [format(
          "hostRequirements.cpus %s is not a positive number; it is ignored", tostring(${hrGiven}.cpus))] : [],
        [for field, name in { memory_bytes = "memory", storage_bytes = "storage" } : format(
          "hostRequirements.%s %s bytes is not a positive size; it is ignored", name, tostring(${hrGiven}[field]))
          if try(!(${hrGiven}[field] >= 1), false)],
        try(${hrGpu} != "" && !${hrGpuRequested} && !(jsondecode(${hrGpu}) == false
          || jsondecode(${hrGpu}) == "optional" || jsondecode(${hrGpu}) == null),
          ${hrGpu} != null && ${hrGpu} != "")
          ? [format("hostRequirements.gpu %s is not true, false, \"optional\" or an object; no GPU is requested",
            can(jsondecode(${hrGpu})) ? ${hrGpu} : jsonencode(${hrGpu}))] : []
      )`,
    );
    const texts = this.quantityTexts(factors, hrCpus, hrMemory, hrStorage);
    const hrIgnored = locals.add<string[]>(
      "hr_ignored_warnings",
      hcl`${k8sSet} && (${hrCpus} != null || ${hrMemory} != null) ? [format(
        "hostRequirements %s ignored: customizations.kubernetes resources are set",
        join(", ", compact([
          ${hrCpus} != null ? format("cpus %s", tostring(${hrCpus})) : "",
          ${hrMemory} != null ? format("memory %s", ${text(texts.byteTexts, "hr_memory")}) : ""
        ]))
      )] : []`,
    );
    return { hrCpus, hrMemory, hrStorage, hrGpu, hrGpuRequested, hrInvalid, hrIgnored, ...texts };
  }

  /**
   * The sizes the template writes itself, each as a person writes a Kubernetes quantity: bytes
   * in the largest binary unit that holds them exactly (`8Gi`, `1536Mi`), plain bytes only
   * where none does; cores whole, else in millicores (`2500m`), else as they are. The value
   * never changes: the text is exact, so nothing is rounded up or down by writing it.
   */
  private quantityTexts(
    factors: ByName<number>,
    hrCpus: Expr<number>,
    hrMemory: Expr<number>,
    hrStorage: Expr<number>,
  ): QuantityTexts {
    const { locals, props } = this;
    // A fractional byte count (a maximum such as 0.1 GiB) has no exact unit but GiB itself.
    const byteTexts = locals.add<Record<string, string>>(
      "byte_quantity_texts",
      hcl`{ for name, bytes in {
          hr_memory = try(floor(${hrMemory}), null),
          hr_storage = try(floor(${hrStorage}), null),
          max_memory = ${props.maxMemory} * ${GIB},
          max_disk = ${props.maxDisk} * ${GIB},
          max_ephemeral_storage = ${props.maxEphemeralStorage} * ${GIB},
        } : name => bytes == null ? null
          : bytes != floor(bytes) ? format("%sGi", tostring(bytes / ${GIB}))
          : concat([for suffix in ${BINARY_SUFFIXES} : format("%s%s", tostring(bytes / ${factors}[suffix]), suffix)
            if bytes >= ${factors}[suffix] && bytes % ${factors}[suffix] == 0], [tostring(bytes)])[0] }`,
      "Every size the template derives, in the largest binary unit that holds it exactly.",
    );
    const cpuTexts = locals.add<Record<string, string>>(
      "cpu_quantity_texts",
      hcl`{ for name, cores in { hr_cpus = ${hrCpus}, max_cpu = ${props.maxCpu} } : name => cores == null ? null
        : cores == floor(cores) ? tostring(cores)
        : cores * 1000 == floor(cores * 1000) ? format("%sm", tostring(cores * 1000))
        : tostring(cores) }`,
      "Fractional cores are written in millicores, as Kubernetes writes them, when that is exact.",
    );
    return { byteTexts, cpuTexts };
  }

  /** The CPU and the memory reservation, and the warnings for one that a maximum caps. */
  private reservations(
    given: KubernetesResources,
    { hrCpus, hrMemory, cpuTexts, byteTexts }: HostRequirements,
  ): Reservations {
    const { locals, props } = this;
    const cpu = this.reservation(given, {
      name: "cpu",
      unit: "cores",
      parameter: props.cpu,
      max: props.maxCpu,
      hrField: "cpus",
      hrAmount: hrCpus,
      hrShown: hcl<string>`tostring(${hrCpus})`,
      texts: cpuTexts,
      defaultRequest: DEFAULT_CPU_REQUEST,
      defaultAmount: DEFAULT_CPU_REQUEST_CORES,
      requiredWhy:
        "The repository's reservation comes from one source only, customizations.kubernetes first.",
    });
    const memory = this.reservation(given, {
      name: "memory",
      unit: "bytes",
      parameter: props.memory,
      max: props.maxMemory,
      hrField: "memory",
      hrAmount: hrMemory,
      hrShown: text(byteTexts, "hr_memory"),
      texts: byteTexts,
      defaultRequest: DEFAULT_MEMORY_REQUEST,
      defaultAmount: DEFAULT_MEMORY_REQUEST_BYTES,
      hrIsLimit: hcl<boolean>`try(${props.memoryIsLimit} == true, false)`,
      requiredWhy:
        "One source of the reservation, customizations.kubernetes first; runArgs --memory is a limit.",
    });
    const capWarnings = locals.add<string[]>(
      "resource_cap_warnings",
      hcl`concat(${cpu.capWarning}, ${memory.capWarning})`,
    );
    return { cpu, memory, capWarnings };
  }

  /**
   * One reservation, written once for CPU and memory: the request (the repository's, capped by
   * the maximum, else the default lowered to a smaller limit), the limit (the repository's raised
   * to the request, else the larger of request and parameter) and the warning when capped.
   */
  private reservation(
    { k8sSet, requests, limits, requestAmounts, limitAmounts }: KubernetesResources,
    q: ReservedQuantity,
  ): Reservation {
    const { locals } = this;
    const { name, defaultAmount } = q;
    const bytes = q.unit === "bytes";
    // Memory's parameter and maximum are GiB, its amounts bytes.
    const amountOf = (gib: Expr<number>) => (bytes ? hcl<number>`${gib} * ${GIB}` : gib);
    const { hrIsLimit, hrAmount } = q;
    const required = locals.add<number>(
      `required_${name}`,
      hcl`${k8sSet} ? ${lookupAmount(requestAmounts, name)}
        : ${hrIsLimit ? hcl`${hrIsLimit} ? null : ${hrAmount}` : hrAmount}`,
      q.requiredWhy,
    );
    const hrLimit = this.hrLimit(k8sSet, q);
    const capped = locals.add<boolean>(
      `${name}_capped`,
      hcl`try(${required} > ${amountOf(q.max)}, false)`,
      `A repository may not reserve more than the operator's max_${name} on the node.`,
    );
    const request = locals.add<string>(
      `${name}_request`,
      hcl`${required} == null
        ? (try(${limitAmounts}[${name}] < ${defaultAmount}, false) ? ${limits}[${name}] : ${hrLimit.unreserved})
        : ${capped} ? ${text(q.texts, `max_${name}`)}
        : ${k8sSet} ? ${requests}[${name}]
        : ${text(q.texts, `hr_${q.hrField}`)}`,
      `Without a reservation ${q.defaultRequest}, lowered to a smaller limit: the API refuses request > limit.`,
    );
    // Bytes are whole: a fractional max_memory (0.1 GiB) is floored.
    const cappedAmount = bytes
      ? hcl`${capped} ? floor(${amountOf(q.max)}) : ${required}`
      : hcl`min(${required}, ${q.max})`;
    const amount = locals.add<number>(
      `${name}_request_amount`,
      hcl`${required} == null
        ? ${hrLimit.lowest(defaultAmount, hcl`try(${limitAmounts}[${name}], ${defaultAmount})`)}
        : ${cappedAmount}`,
      `The limit is compared with the request as a number of ${q.unit}, capped like the request.`,
    );
    const limitRaised = locals.add<boolean>(
      `${name}_limit_raised`,
      hcl`try(${limitAmounts}[${name}] < ${amount}, false)`,
      "Kubernetes rejects a limit below its request, so such a limit is raised to the request.",
    );
    const limit = locals.add<string>(
      `${name}_limit`,
      hcl`contains(keys(${limits}), ${name})
        ? (${limitRaised} ? ${request} : ${limits}[${name}])
        : ${hrLimit.limit(hcl`try(${required} != null && ${amount} > ${amountOf(hcl<number>`tonumber(${q.parameter})`)}, false) ? ${request}
          : ${bytes ? hcl`format("%sGi", tostring(${q.parameter}))` : hcl`tostring(${q.parameter})`}`)}`,
      "The repository's limit wins (raised to the request); else the larger of request and parameter.",
    );
    const exceeds = `exceeds max_${name} %s${bytes ? " GiB" : ""}: reserving %s`;
    const capWarning = hcl<string[]>`${capped} ? [${k8sSet}
        ? format(${`customizations.kubernetes resources.requests["${name}"] = %s ${exceeds}`},
          jsonencode(${requests}[${name}]), tostring(${q.max}), ${request})
        : format(${`hostRequirements.${q.hrField} %s ${exceeds}`}, ${q.hrShown}, tostring(${q.max}), ${request})
      ] : []`;
    return { request, limitRaised, limit, capWarning };
  }

  /**
   * hostRequirements' amount when it is the container's limit (runArgs --memory, as for docker
   * run): `run_args_<name>_limit`, and what it adds to the request without a reservation, to
   * that request's amount and to the limit. Nothing for a quantity it is no limit of.
   */
  private hrLimit(k8sSet: Expr<boolean>, q: ReservedQuantity): HrLimit {
    const { hrIsLimit, defaultRequest, defaultAmount } = q;
    if (hrIsLimit === undefined) {
      return {
        unreserved: defaultRequest,
        lowest: (a, b) => hcl`min(${a}, ${b})`,
        limit: (otherwise) => otherwise,
      };
    }
    const hrLimit = this.locals.add<number>(
      `run_args_${q.name}_limit`,
      hcl`!${k8sSet} && ${hrIsLimit} ? ${q.hrAmount} : null`,
      "docker run --memory caps the container and reserves nothing: it becomes the limit.",
    );
    // Written as every other size is (`4Gi`, not 4294967296): the provider compares quantities,
    // so a workspace whose limit was written in bytes sees no change.
    const written = text(q.texts, `hr_${q.hrField}`);
    return {
      unreserved: hcl`try(${hrLimit} < ${defaultAmount}, false) ? ${written} : ${defaultRequest}`,
      lowest: (a, b) => hcl`min(${a}, ${b}, try(floor(${hrLimit}), ${defaultAmount}))`,
      limit: (otherwise) => hcl`${hrLimit} != null ? ${written} : ${otherwise}`,
    };
  }

  /** The data volume's size: the parameter, raised by the repository's storage up to max_disk. */
  private disk(
    { storage, storageAmount }: KubernetesResources,
    { hrStorage, byteTexts }: HostRequirements,
  ): Disk {
    const { locals, props } = this;
    // The parameter keeps the form it always had, so an existing workspace's size reads the same.
    const parameterDisk = hcl`format("%sGi", tostring(${props.diskSize}))`;
    const requiredDisk = locals.add<number>(
      "required_disk",
      hcl`${storageAmount} != null ? ${storageAmount} : ${hrStorage}`,
      "customizations.kubernetes storage is the more specific ask, so it wins over hostRequirements.",
    );
    const diskRaised = locals.add<boolean>(
      "disk_raised",
      hcl`try(${requiredDisk} > tonumber(${props.diskSize}) * ${GIB}, false)`,
      "Only a repository's ask above the parameter counts: it raises the disk, never lowers it.",
    );
    // The repository raises the disk up to max_disk; the parameter, the user's own, stays.
    const diskCapped = locals.add<boolean>(
      "disk_capped",
      hcl`${diskRaised} && try(${requiredDisk} > ${props.maxDisk} * ${GIB}, false)`,
      "The repository raises the disk up to the operator's max_disk, never beyond.",
    );
    const diskSize = locals.add<string>(
      "disk_size",
      hcl`${diskCapped} ? (tonumber(${props.diskSize}) > ${props.maxDisk} ? ${parameterDisk} : ${text(byteTexts, "max_disk")})
        : ${diskRaised} ? (${storage} != null ? ${storage} : ${text(byteTexts, "hr_storage")})
        : ${parameterDisk}`,
      "The repository may raise the disk within max_disk, never lower the user's parameter.",
    );
    const storageWarnings = locals.add<string[]>(
      "storage_warnings",
      hcl`${storage} != null && ${hrStorage} != null ? [format(
        "hostRequirements.storage %s ignored: customizations.kubernetes storage %s is used instead",
        ${text(byteTexts, "hr_storage")}, jsonencode(${storage}))] : []`,
    );
    return { diskCapped, diskSize, storageWarnings };
  }

  /** Ephemeral storage: passed through, limit raised to the request. */
  private ephemeralStorage(
    { requests, limits, requestAmounts, limitAmounts }: KubernetesResources,
    { cpu, memory }: Reservations,
    { byteTexts }: HostRequirements,
  ): EphemeralStorage {
    const { locals, props } = this;
    const maxEphemeralBytes = hcl`${props.maxEphemeralStorage} * ${GIB}`;
    const maxEphemeralQuantity = text(byteTexts, "max_ephemeral_storage");
    const ephemeralRequestCapped = locals.add<boolean>(
      "ephemeral_storage_request_capped",
      hcl`try(${requestAmounts}["ephemeral-storage"] > ${maxEphemeralBytes}, false)`,
      "A repository may not reserve more node disk than max_ephemeral_storage.",
    );
    const ephemeralRequest = locals.add<string>(
      "ephemeral_storage_request",
      hcl`${ephemeralRequestCapped} ? ${maxEphemeralQuantity} : lookup(${requests}, "ephemeral-storage", null)`,
      "Passed through, but capped: the node's disk is shared by every pod on it.",
    );
    const ephemeralLimitCapped = locals.add<boolean>(
      "ephemeral_storage_limit_capped",
      hcl`try(${limitAmounts}["ephemeral-storage"] > ${maxEphemeralBytes}, false)`,
      "A repository may not be allowed more node disk than max_ephemeral_storage.",
    );
    const ephemeralRaised = locals.add<boolean>(
      "ephemeral_storage_limit_raised",
      hcl`try(${limitAmounts}["ephemeral-storage"] < min(${requestAmounts}["ephemeral-storage"], ${maxEphemeralBytes}), false)`,
      "Kubernetes rejects a limit below its request, so such a limit is raised to the request.",
    );
    const ephemeralLimit = locals.add<string>(
      "ephemeral_storage_limit",
      hcl`${ephemeralRaised} ? ${ephemeralRequest}
        : ${ephemeralLimitCapped} ? ${maxEphemeralQuantity}
        : lookup(${limits}, "ephemeral-storage", null)`,
      "A limit below the request is raised to it, one above max_ephemeral_storage lowered.",
    );
    const raised = (
      name: string,
      { limitRaised, request }: Pick<Reservation, "limitRaised" | "request">,
    ) => hcl`{ name = ${name}, raised = ${limitRaised}, request = ${request} }`;
    const raisedWarnings = locals.add<string[]>(
      "limit_raised_warnings",
      hcl`[for limit in [
          ${raised("cpu", cpu)},
          ${raised("memory", memory)},
          ${raised("ephemeral-storage", { limitRaised: ephemeralRaised, request: ephemeralRequest })},
        ] : format(
          "customizations.kubernetes resources.limits[\"%s\"] = %s is below the request %s: the limit is raised to it",
          limit.name, jsonencode(${limits}[limit.name]), limit.request)
        if limit.raised]`,
    );
    return {
      ephemeralRequestCapped,
      ephemeralRequest,
      ephemeralLimitCapped,
      ephemeralLimit,
      raisedWarnings,
    };
  }

  /** Extended resources and hugepages: limits only (request == limit in Kubernetes). */
  private extendedResources(
    { requests, limits, requestAmounts, limitAmounts }: KubernetesResources,
    { hrGpuRequested }: HostRequirements,
  ): ExtendedResources {
    const { locals, props } = this;
    const extendedNames = locals.add<string[]>(
      "extended_resource_names",
      hcl`sort(setsubtract(setunion(keys(${requests}), keys(${limits})), ${STANDARD_RESOURCE_NAMES}))`,
      "Everything not cpu, memory or ephemeral-storage is an extended resource or hugepages.",
    );
    // Kubernetes reserves an extended resource's limit, so only the names the operator lists
    // pass, each up to its most (hugepages, no extended resource, are capped by max_memory).
    const extendedMaxima = locals.add<Record<string, number>>(
      "extended_resource_maxima",
      hcl`${props.maxExtendedResources}`,
      "Kubernetes reserves an extended resource's limit: only what the operator allows may pass.",
    );
    const extendedAllowed = locals.add<Record<string, boolean>>(
      "extended_resource_allowed",
      hcl`{ for name in ${extendedNames} :
        name => !strcontains(name, "/") || contains(keys(${extendedMaxima}), name) }`,
      "Hugepages are memory (capped by max_memory); other extended resources must be listed.",
    );
    const givenExtended = locals.add<Record<string, string>>(
      "extended_resource_given",
      hcl`{ for name in ${extendedNames} : name => lookup(${limits}, name, lookup(${requests}, name, null)) }`,
      "A limit wins over a request: Kubernetes needs them equal for extended resources.",
    );
    const extendedCapped = locals.add<Record<string, boolean>>(
      "extended_resource_capped",
      hcl`{ for name in ${extendedNames} : name => strcontains(name, "/") && try(
        lookup(${limitAmounts}, name, lookup(${requestAmounts}, name, 0)) > ${extendedMaxima}[name], false) }`,
      "Each allowed extended resource is capped at the operator's most for it.",
    );
    const extendedLimits = locals.add<Record<string, string>>(
      "extended_resource_limits",
      hcl`{ for name in ${extendedNames} :
        name => ${extendedCapped}[name] ? tostring(${extendedMaxima}[name]) : ${givenExtended}[name]
        if ${extendedAllowed}[name] }`,
      "Kubernetes wants request = limit for these: only the limit is set, and it reserves.",
    );
    const allowedNames = hcl<string>`length(${extendedMaxima}) == 0 ? "none" : join(", ", keys(${extendedMaxima}))`;
    const extendedWarnings = locals.add<string[]>(
      "extended_resource_warnings",
      hcl`concat(
        [for name in ${extendedNames} : format(
          "customizations.kubernetes resources[%s] = %s: not an extended resource the template variable max_extended_resources allows (%s), ignored",
          jsonencode(name), jsonencode(${givenExtended}[name]), ${allowedNames})
          if !${extendedAllowed}[name]],
        [for name in ${extendedNames} : format(
          "customizations.kubernetes resources[%s] = %s exceeds max_extended_resources[%s] = %s: the limit is %s",
          jsonencode(name), jsonencode(${givenExtended}[name]), jsonencode(name), tostring(${extendedMaxima}[name]), ${extendedLimits}[name])
          if ${extendedAllowed}[name] && ${extendedCapped}[name]],
        [for name in ${extendedNames} : format(
          "customizations.kubernetes resources[%s]: the request %s and the limit %s differ; Kubernetes needs them equal, so the limit is used",
          jsonencode(name), jsonencode(${requests}[name]), jsonencode(${limits}[name]))
          if ${extendedAllowed}[name] && try(${requestAmounts}[name] != ${limitAmounts}[name], false)]
      )`,
    );
    const gpuAllowed = hcl<boolean>`try(${extendedMaxima}[${HOST_REQUIREMENTS_GPU_RESOURCE}] >= 1, false)`;
    const gpuLimits = locals.add<Record<string, string>>(
      "gpu_limits",
      hcl`{ for name, value in { ${HOST_REQUIREMENTS_GPU_RESOURCE} = "1" } : name => value
        if ${hrGpuRequested} && ${gpuAllowed} }`,
      "hostRequirements.gpu asks for one GPU, given only when max_extended_resources allows one.",
    );
    return { extendedNames, extendedLimits, extendedWarnings, gpuLimits, allowedNames, gpuAllowed };
  }

  /** The warnings for a disk, ephemeral storage or GPU that an operator maximum caps. */
  private quantityCapWarnings(
    { requests, limits, storage }: KubernetesResources,
    { hrGpu, hrGpuRequested, byteTexts }: HostRequirements,
    { diskCapped, diskSize }: Disk,
    {
      ephemeralRequestCapped,
      ephemeralRequest,
      ephemeralLimitCapped,
      ephemeralLimit,
    }: EphemeralStorage,
    { allowedNames, gpuAllowed }: ExtendedResources,
  ): Expr<string[]> {
    const { locals, props } = this;
    const quantityCapWarnings = locals.add<string[]>(
      "quantity_cap_warnings",
      hcl`concat(
        ${diskCapped} ? [${storage} != null
          ? format("customizations.kubernetes storage = %s exceeds max_disk %s GiB: the disk is %s", jsonencode(${storage}), tostring(${props.maxDisk}), ${diskSize})
          : format("hostRequirements.storage %s exceeds max_disk %s GiB: the disk is %s", ${text(byteTexts, "hr_storage")}, tostring(${props.maxDisk}), ${diskSize})
        ] : [],
        ${ephemeralRequestCapped} ? [format(
          "customizations.kubernetes resources.requests[\"ephemeral-storage\"] = %s exceeds max_ephemeral_storage %s GiB: reserving %s",
          jsonencode(${requests}["ephemeral-storage"]), tostring(${props.maxEphemeralStorage}), ${ephemeralRequest})] : [],
        ${ephemeralLimitCapped} ? [format(
          "customizations.kubernetes resources.limits[\"ephemeral-storage\"] = %s exceeds max_ephemeral_storage %s GiB: the limit is %s",
          jsonencode(${limits}["ephemeral-storage"]), tostring(${props.maxEphemeralStorage}), ${ephemeralLimit})] : [],
        ${hrGpuRequested} && !${gpuAllowed} ? [format(
          "hostRequirements.gpu %s asks for a GPU; %s is not in the template variable max_extended_resources (%s), so none is requested",
          ${hrGpu}, ${HOST_REQUIREMENTS_GPU_RESOURCE}, ${allowedNames})] : []
      )`,
    );
    return quantityCapWarnings;
  }

  /** What goes on the container: its requests and limits, without nulls. */
  private containerResources(
    { cpu, memory }: Reservations,
    { ephemeralRequest, ephemeralLimit }: EphemeralStorage,
    { gpuLimits, extendedLimits }: ExtendedResources,
  ): ContainerResources {
    const { locals } = this;
    const standard = (cpu: Expr<string>, memory: Expr<string>, ephemeral: Expr<string>) =>
      hcl`{ cpu = ${cpu}, memory = ${memory}, "ephemeral-storage" = ${ephemeral} }`;
    const resourceRequests = locals.add<Record<string, string>>(
      "resource_requests",
      hcl`{ for name, value in ${standard(cpu.request, memory.request, ephemeralRequest)} : name => value if value != null }`,
      "A quantity nobody reserves is left out, so the pod asks for none of it (not a null).",
    );
    const resourceLimits = locals.add<Record<string, string>>(
      "resource_limits",
      hcl`{ for name, value in merge(
          ${standard(cpu.limit, memory.limit, ephemeralLimit)},
          ${gpuLimits},
          ${extendedLimits}
        ) : name => value if value != null }`,
      "The standard, GPU and extended limits in one map, as the container's limits take them.",
    );
    return { resourceRequests, resourceLimits };
  }

  /** Where the resources come from, and the "Resources (reserved / limit)" text. */
  private resourcesSummary(
    { k8sSet, storage }: KubernetesResources,
    { hrCpus, hrMemory, hrStorage }: HostRequirements,
    { cpu, memory }: Reservations,
    { diskSize }: Disk,
    { extendedNames, gpuLimits }: ExtendedResources,
    { resourceRequests, resourceLimits }: ContainerResources,
  ): Expr<string> {
    const { locals } = this;
    const source = locals.add<string>(
      "resources_source",
      hcl`coalesce(join(" and ", compact([
        ${k8sSet} || ${storage} != null ? "customizations.kubernetes" : "",
        (!${k8sSet} && (${hrCpus} != null || ${hrMemory} != null))
          || (${storage} == null && ${hrStorage} != null)
          || (length(${gpuLimits}) > 0 && !contains(${extendedNames}, ${HOST_REQUIREMENTS_GPU_RESOURCE}))
          ? "hostRequirements" : ""
      ])), "the parameters")`,
      "The summary names where the numbers came from, so users know what to edit.",
    );
    // Shown on the dashboard: not secret, even when derived from the (sensitive-marked)
    // data source.
    const summaryText = locals.add<string>(
      "resources_summary_text",
      hcl`join(" · ", concat(
        [
          format("CPU %s / %s", ${cpu.request}, ${cpu.limit}),
          format("memory %s / %s", ${memory.request}, ${memory.limit}),
          format("disk %s", ${diskSize})
        ],
        [for name in sort(setsubtract(setunion(keys(${resourceRequests}), keys(${resourceLimits})), ["cpu", "memory"])) :
          format("%s %s / %s", name,
            lookup(${resourceRequests}, name, lookup(${resourceLimits}, name, "")),
            lookup(${resourceLimits}, name, "none"))],
        [format("from %s", ${source})]
      ))`,
      "Shown on the dashboard: not secret, so unwrapped from the data source's sensitive mark.",
    );
    const summary = locals.add<string>(
      "resources_summary",
      hcl`try(nonsensitive(${summaryText}), ${summaryText})`,
      "nonsensitive() fails on a value that is not marked, and the text may be either: tried.",
    );
    return summary;
  }

  /** Every warning about the resources a repository asks for, in one list. */
  private warningLines(
    { invalidWarnings }: KubernetesResources,
    { hrInvalid, hrIgnored }: HostRequirements,
    { capWarnings }: Reservations,
    quantityCapWarnings: Expr<string[]>,
    { storageWarnings }: Disk,
    { raisedWarnings }: EphemeralStorage,
    { extendedWarnings }: ExtendedResources,
  ): Expr<string[]> {
    const { locals, props } = this;
    const k8s = props.customizations;
    const warnings = locals.add<string[]>(
      "resource_warnings",
      hcl`concat(
        ${k8s.resourceShapeWarnings},
        ${invalidWarnings}, ${hrInvalid}, ${hrIgnored}, ${capWarnings}, ${quantityCapWarnings}, ${raisedWarnings},
        ${extendedWarnings}, ${storageWarnings}
      )`,
    );
    return warnings;
  }
}

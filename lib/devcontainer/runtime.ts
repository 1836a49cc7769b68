/**
 * The container runtime settings of devcontainer.json mapped onto the workspace pod (spec §12):
 * capabilities, privileged, seccomp, init, /dev/shm size, hostname and extra hosts.
 *
 * Clock: apply time (the image's Dev Container metadata). Inputs may be null or malformed;
 * the plan never fails on them. Whatever the pod does not get is reported: capabilities
 * outside the Pod Security baseline, `privileged` and seccomp `unconfined` are dropped unless
 * the `allow_privileged` template variable is on, each with a warning naming the variable
 * (the upstream template warned only about capabilities); values Kubernetes would reject
 * (a hostname that is not a DNS label, a host alias whose IP is not an IP, …) are dropped
 * with a warning naming field and value, so they cannot fail the apply.
 */
import { Construct } from "../core/cdk";
import { Expr, hcl } from "../core/expr";
import { NamedLocals } from "../core/named-locals";
import type {
  DeploymentV1,
  DeploymentV1SpecTemplateSpecContainerSecurityContext,
} from "@cdktf/provider-kubernetes/lib/deployment-v1";

/** Capabilities the Pod Security "baseline" level allows to add (Kubernetes docs). */
export const BASELINE_CAPABILITIES = [
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
] as const;

/**
 * The capability names a container may add: the Linux capabilities (capabilities(7), without
 * `CAP_`) and `ALL`. The API server passes any string on, and the runtime refuses to start a
 * container with an unknown one, so the template adds no other name. The plan harness keeps
 * its own copy (packages/terraform-harness/src/kubernetes-api.ts: it imports nothing of the
 * project); test/devcontainer/runtime.test.ts proves the two equal.
 */
export const KNOWN_CAPABILITIES = [
  "ALL",
  "AUDIT_CONTROL",
  "AUDIT_READ",
  "AUDIT_WRITE",
  "BLOCK_SUSPEND",
  "BPF",
  "CHECKPOINT_RESTORE",
  "CHOWN",
  "DAC_OVERRIDE",
  "DAC_READ_SEARCH",
  "FOWNER",
  "FSETID",
  "IPC_LOCK",
  "IPC_OWNER",
  "KILL",
  "LEASE",
  "LINUX_IMMUTABLE",
  "MAC_ADMIN",
  "MAC_OVERRIDE",
  "MKNOD",
  "NET_ADMIN",
  "NET_BIND_SERVICE",
  "NET_BROADCAST",
  "NET_RAW",
  "PERFMON",
  "SETFCAP",
  "SETGID",
  "SETPCAP",
  "SETUID",
  "SYSLOG",
  "SYS_ADMIN",
  "SYS_BOOT",
  "SYS_CHROOT",
  "SYS_MODULE",
  "SYS_NICE",
  "SYS_PACCT",
  "SYS_PTRACE",
  "SYS_RAWIO",
  "SYS_RESOURCE",
  "SYS_TIME",
  "SYS_TTY_CONFIG",
  "WAKE_ALARM",
] as const;

/**
 * capAdd entries read (devcontainer.json's and runArgs `--cap-add`'s, after the service's
 * merge); the rest is left out with a warning. There are 42 capability names: the margin is
 * for spellings (`CAP_` prefixes, case) and repeats. Each entry costs every plan and apply,
 * so lists are cut before anything walks them (issue 32.2).
 */
export const CAPABILITIES_READ = 100;
/** runtime.host_aliases entries read; the rest is left out with a warning. */
export const HOST_ALIASES_READ = 50;
/** Host names read per host alias; the rest is left out with a warning. */
export const HOST_ALIAS_HOSTNAMES_READ = 20;

/** Size of /dev/shm without `--shm-size` (Docker's default). */
export const DEFAULT_SHM_SIZE = "64Mi";

/** The container's privileges, from capAdd, privileged and seccomp. */
interface Privileges {
  readonly capabilitiesRequested: Expr<string[]>;
  readonly capabilitiesAdd: Expr<string[]>;
  readonly capabilitiesDropped: Expr<string[]>;
  readonly privileged: Expr<boolean>;
  readonly seccompProfiles: Expr<unknown[]>;
  readonly levelMet: Expr<string>;
}
/** `runtime_requested`: the metadata's runtime object, normalized (an object of these fields). */
type RuntimeRequested = Record<string, unknown>;
/** The pod's init, /dev/shm and hostname settings, and the tests their warnings read. */
interface PodSettings {
  readonly shareProcessNamespace: Expr<boolean>;
  readonly shmSizeLimit: Expr<string>;
  readonly hostname: Expr<string>;
  readonly shmValid: Expr<boolean>;
  readonly hostnameValid: Expr<boolean>;
}
export interface DevcontainerRuntimeProps {
  /**
   * The metadata's `runtime` object: `cap_add`, `privileged`, `seccomp_unconfined`, `init`,
   * `shm_size_bytes`, `hostname`, `host_aliases`. Null while stopped or before 0.3.0.
   */
  readonly runtime: Expr<unknown>;
  /**
   * The `allow_privileged` template variable (bool), passed as the bare variable reference so
   * that the privilege policy sees the gate. Declare it non-nullable: null fails the plan.
   */
  readonly allowPrivileged: Expr<boolean>;
  /**
   * The Pod Security level the pod must meet, `"baseline"` or `"restricted"` (the
   * `pod_security_level` template variable). @default "baseline"
   */
  readonly podSecurityLevel?: Expr<string>;
  /** The uid the pod runs as (DevcontainerWorkspaceUser.uid): root cannot meet restricted. @default 1000 */
  readonly uid?: Expr<number>;
  /** Prefix of the local names, for several instances in one module. @default "" */
  readonly localPrefix?: string;
}

/**
 * Locals (with `localPrefix`): `capabilities_requested`, `capabilities_add`,
 * `capabilities_dropped`, `privileged`, `seccomp_profiles`, `share_process_namespace`,
 * `shm_size_limit`, `hostname`, `host_aliases`, `runtime_warnings`, and the intermediate
 * `runtime_requested` and `host_alias_checks`.
 */
export class DevcontainerRuntime extends Construct {
  /** Local `capabilities_add`: list(string) for the `dev` container's `capabilities.add`. */
  public readonly capabilitiesAdd: Expr<string[]>;
  /** Local `privileged`: bool for the `dev` container's `security_context.privileged`. */
  public readonly privileged: Expr<boolean>;
  /**
   * Local `seccomp_profiles`: `[{ type = "Unconfined" }]` or `[]`, the `for_each` of a dynamic
   * `seccomp_profile` block in the `dev` container's security context.
   */
  public readonly seccompProfiles: Expr<unknown[]>;
  /** Local `share_process_namespace`: bool for the pod (devcontainer.json `init`). */
  public readonly shareProcessNamespace: Expr<boolean>;
  /** Local `shm_size_limit`: the `dshm` emptyDir's size_limit, e.g. `"64Mi"` or `"268435456"`. */
  public readonly shmSizeLimit: Expr<string>;
  /** Local `hostname`: the pod hostname, or null. */
  public readonly hostname: Expr<string>;
  /** Local `host_aliases`: list of `{ ip, hostnames }`, the `for_each` of dynamic `host_aliases`. */
  public readonly hostAliases: Expr<unknown[]>;
  /** Local `runtime_warnings`: list(string), dropped settings and bad values. */
  public readonly warnings: Expr<string[]>;
  /** Local `pod_security_restricted`: bool, the operator asked for restricted. */
  public readonly restricted: Expr<boolean>;
  /** Local `pod_security_level_met`: the Pod Security level the pod meets. */
  public readonly levelMet: Expr<string>;

  constructor(scope: Construct, id: string, props: DevcontainerRuntimeProps) {
    super(scope, id);
    const locals = new NamedLocals(this, props.localPrefix ?? "");
    const runtime = props.runtime;
    // Written bare, not `== true`: the template policy (lib/policy/privileged-containers.ts)
    // recognizes the gate only as `var.allow_privileged && …`.
    const allowed = props.allowPrivileged;
    const level = props.podSecurityLevel ?? Expr.of<string>("baseline");
    const restricted = locals.add<boolean>(
      "pod_security_restricted",
      hcl`${level} == "restricted"`,
      "Under restricted, the pod may add NET_BIND_SERVICE only, whatever allow_privileged says.",
    );
    const isRestricted = restricted;

    const r = this.requested(locals, runtime);
    const privileges = this.privileges(locals, props, r, allowed, isRestricted);
    const pod = this.podSettings(locals, r);
    const hostAliases = this.hostAliasesOf(locals, r);
    const warnings = this.warningLines(
      locals,
      props,
      r,
      allowed,
      isRestricted,
      privileges,
      pod,
      hostAliases.hostAliasChecks,
    );

    this.capabilitiesAdd = privileges.capabilitiesAdd;
    this.restricted = restricted;
    this.levelMet = privileges.levelMet;
    this.privileged = privileges.privileged;
    this.seccompProfiles = privileges.seccompProfiles;
    this.shareProcessNamespace = pod.shareProcessNamespace;
    this.shmSizeLimit = pod.shmSizeLimit;
    this.hostname = pod.hostname;
    this.hostAliases = hostAliases.hostAliases;
    this.warnings = warnings;
  }

  /** `runtime_requested`: everything the metadata's runtime object asks for, normalized. */
  private requested(locals: NamedLocals, runtime: Expr<unknown>): Expr<RuntimeRequested> {
    // Everything read from the metadata, normalized: capability names upper case without
    // `CAP_` (Docker accepts both; Kubernetes wants the bare name), hostnames lower case
    // (DNS names are case-insensitive; Kubernetes accepts only lower case). Lists are cut
    // first (slice() is linear), and a capability named twice is kept at its first place,
    // found through one map (distinct() compares every pair).
    const capabilitiesGiven = locals.add<unknown[]>(
      "capabilities_given",
      hcl`try(concat(${runtime}.cap_add, []), [])`,
      "The list is cut before it is walked: every entry costs each plan and apply.",
    );
    const capabilitiesNormalized = locals.add<string[]>(
      "capabilities_normalized",
      hcl`try([
        for c in slice(${capabilitiesGiven}, 0, min(length(${capabilitiesGiven}), ${CAPABILITIES_READ})) :
        upper(trimprefix(upper(trimspace(c)), "CAP_")) if try(trimspace(c) != "", false)
      ], [])`,
      "Docker takes CAP_X or X in any case; Kubernetes only the bare upper-case name.",
    );
    const capabilityFirst = locals.add<Record<string, number[]>>(
      "capabilities_first_position",
      hcl`{ for position, c in ${capabilitiesNormalized} : c => position... }`,
      "One map finds each name's first place: distinct() would compare every pair.",
    );
    const hostAliasesGiven = locals.add<unknown[]>(
      "host_aliases_given",
      hcl`try(concat(${runtime}.host_aliases, []), [])`,
      "The list is cut before it is walked: every entry costs each plan and apply.",
    );
    return locals.add<RuntimeRequested>(
      "runtime_requested",
      hcl`{
        capabilities = [for position, c in ${capabilitiesNormalized} : c if ${capabilityFirst}[c][0] == position],
        capabilities_listed = length(${capabilitiesGiven}),
        host_aliases_listed = length(${hostAliasesGiven}),
        privileged = try(${runtime}.privileged == true, false),
        seccomp_unconfined = try(${runtime}.seccomp_unconfined == true, false),
        init = try(${runtime}.init == true, false),
        shm_size_bytes = try(${runtime}.shm_size_bytes, null),
        hostname = try(lower(trimspace(${runtime}.hostname)), ""),
        host_aliases = try([
          for a in slice(${hostAliasesGiven}, 0, min(length(${hostAliasesGiven}), ${HOST_ALIASES_READ})) : {
            ip = try(trimspace(a.ip), null),
            hostnames_listed = try(length(a.hostnames), 0),
            hostnames = try([
              for h in slice(a.hostnames, 0, min(length(a.hostnames), ${HOST_ALIAS_HOSTNAMES_READ})) :
              lower(trimspace(h)) if try(trimspace(h) != "", false)
            ], []),
          }
        ], []),
      }`,
      "Everything read from the metadata, normalized once: the decisions below read only this.",
    );
  }

  /** What the container may do: the capabilities it adds, privileged, seccomp, and the level it meets. */
  private privileges(
    locals: NamedLocals,
    props: DevcontainerRuntimeProps,
    r: Expr<RuntimeRequested>,
    allowed: Expr<boolean>,
    isRestricted: Expr<boolean>,
  ): Privileges {
    // Only names the runtime knows: an unknown one (FOO_BAR, a typo) would keep the pod from
    // starting, so it is dropped with the "is not a capability name" warning.
    const capabilitiesRequested = locals.add<string[]>(
      "capabilities_requested",
      hcl`[for c in ${r}.capabilities : c if contains(${KNOWN_CAPABILITIES}, c)]`,
      "An unknown name (FOO_BAR, a typo) would keep the pod from starting, so it is dropped.",
    );
    // restricted lets a container add NET_BIND_SERVICE only, whatever allow_privileged says.
    const capabilitiesAdd = locals.add<string[]>(
      "capabilities_add",
      hcl`[for c in ${capabilitiesRequested} : c if ${isRestricted}
        ? c == "NET_BIND_SERVICE"
        : (${allowed} || contains(${BASELINE_CAPABILITIES}, c))]`,
      "Beyond the Pod Security baseline only with allow_privileged: the operator decides.",
    );
    const capabilitiesDropped = locals.add<string[]>(
      "capabilities_dropped",
      hcl`[for c in ${capabilitiesRequested} : c if !contains(${capabilitiesAdd}, c)]`,
      "The warning names what the pod does not get, and the variable that would allow it.",
    );
    const privileged = locals.add<boolean>(
      "privileged",
      hcl`${allowed} && ${r}.privileged && !${isRestricted}`,
      "A privileged container is the node's root: only the operator's allow_privileged permits it.",
    );
    const seccompProfiles = locals.add<unknown[]>(
      "seccomp_profiles",
      hcl`${allowed} && ${r}.seccomp_unconfined && !${isRestricted} ? [{ type = "Unconfined" }] : []`,
      "Unconfined lifts the kernel's syscall filter: only with the operator's allow_privileged.",
    );
    const uid = props.uid ?? Expr.of<number>(1000);
    // The level the pod meets (shown on the workspace page): restricted needs a non-root user.
    const levelMet = locals.add<string>(
      "pod_security_level_met",
      hcl`${isRestricted} && ${uid} != 0 ? "restricted"
        : ${privileged} || length(${seccompProfiles}) > 0
          || length([for c in ${capabilitiesAdd} : c if !contains(${BASELINE_CAPABILITIES}, c)]) > 0
        ? "privileged" : "baseline"`,
      "Shown on the workspace page: the level the pod meets; restricted needs a non-root user.",
    );
    return {
      capabilitiesRequested,
      capabilitiesAdd,
      capabilitiesDropped,
      privileged,
      seccompProfiles,
      levelMet,
    };
  }

  /** The pod's init, /dev/shm size and hostname, and the tests of the latter two. */
  private podSettings(locals: NamedLocals, r: Expr<RuntimeRequested>): PodSettings {
    const shareProcessNamespace = locals.add<boolean>(
      "share_process_namespace",
      hcl`${r}.init`,
      "devcontainer.json init: a shared process namespace lets the pause process reap zombies.",
    );

    const shmValid = hcl<boolean>`try(floor(${r}.shm_size_bytes) == ${r}.shm_size_bytes && ${r}.shm_size_bytes > 0, false)`;
    const shmSizeLimit = locals.add<string>(
      "shm_size_limit",
      hcl`${shmValid} ? format("%d", ${r}.shm_size_bytes) : ${DEFAULT_SHM_SIZE}`,
      "Kubernetes has no shm size: /dev/shm is a memory-backed emptyDir of this size limit.",
    );

    // A pod hostname must be a DNS label (RFC 1123).
    const hostnameValid = hcl<boolean>`can(regex("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$", ${r}.hostname))`;
    const hostname = locals.add<string>(
      "hostname",
      hcl`${hostnameValid} ? ${r}.hostname : null`,
      "Kubernetes rejects a pod hostname that is not a DNS label, so such a value is dropped.",
    );
    return { shareProcessNamespace, shmSizeLimit, hostname, shmValid, hostnameValid };
  }

  /** The host aliases Kubernetes accepts, and each one's checks. */
  private hostAliasesOf(
    locals: NamedLocals,
    r: Expr<RuntimeRequested>,
  ): { readonly hostAliasChecks: Expr<unknown[]>; readonly hostAliases: Expr<unknown[]> } {
    // Kubernetes rejects a host alias whose IP is not an IP address (Docker's `host-gateway`
    // has no pod equivalent) and hostnames that are not DNS subdomains. The pattern admits
    // only IP characters; an IPv6 address (any ":") must also parse, which cidrhost() does.
    const ipPattern =
      "^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])[.]){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$|^[0-9a-fA-F:.]*:[0-9a-fA-F:.]*$";
    const hostnamePattern = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";
    const aliasChecks = hcl`[
      for a in ${r}.host_aliases : {
        ip = a.ip,
        ip_valid = try(can(regex(${ipPattern}, a.ip)) && (!strcontains(a.ip, ":") || can(cidrhost(format("%s/128", a.ip), 0))), false),
        hostnames_listed = a.hostnames_listed,
        hostnames = [for h in a.hostnames : h if can(regex(${hostnamePattern}, h)) && length(h) <= 253],
        bad_hostnames = [for h in a.hostnames : h if !(can(regex(${hostnamePattern}, h)) && length(h) <= 253)],
      }
    ]`;
    const hostAliasChecks = locals.add<unknown[]>(
      "host_alias_checks",
      aliasChecks,
      "Kubernetes rejects a host alias without an IP address or with a bad host name: checked first.",
    );
    const hostAliases = locals.add<unknown[]>(
      "host_aliases",
      hcl`[
        for a in ${hostAliasChecks} : { ip = a.ip, hostnames = a.hostnames }
        if a.ip_valid && length(a.hostnames) > 0
      ]`,
      "Only the aliases Kubernetes accepts reach the pod; the others become warnings.",
    );
    return { hostAliasChecks, hostAliases };
  }

  /** `runtime_warnings`: every setting the pod does not get, and why. */
  private warningLines(
    locals: NamedLocals,
    props: DevcontainerRuntimeProps,
    r: Expr<RuntimeRequested>,
    allowed: Expr<boolean>,
    isRestricted: Expr<boolean>,
    { capabilitiesDropped, capabilitiesRequested }: Privileges,
    { shmValid, hostnameValid }: PodSettings,
    hostAliasChecks: Expr<unknown[]>,
  ): Expr<string[]> {
    const uid = props.uid ?? Expr.of<number>(1000);
    return locals.add<string[]>(
      "runtime_warnings",
      hcl`concat(
        length(${capabilitiesDropped}) > 0 ? [format(${isRestricted}
          ? "capAdd: %s not added; the template's Pod Security level restricted allows only NET_BIND_SERVICE."
          : "capAdd: %s not added; only the Pod Security baseline capabilities are allowed while the template variable allow_privileged is off.",
          join(", ", ${capabilitiesDropped}))] : [],
        ${r}.privileged && !(${allowed}) && !${isRestricted} ? [
          "privileged: the container does not run privileged because the template variable allow_privileged is off."] : [],
        ${r}.seccomp_unconfined && !(${allowed}) && !${isRestricted} ? [
          "securityOpt seccomp=unconfined: the container keeps its seccomp profile because the template variable allow_privileged is off."] : [],
        ${isRestricted} && ${r}.privileged ? [
          "privileged: the container does not run privileged: the template's Pod Security level is restricted."] : [],
        ${isRestricted} && ${r}.seccomp_unconfined ? [
          "securityOpt seccomp=unconfined: the container keeps the RuntimeDefault seccomp profile: the template's Pod Security level is restricted."] : [],
        ${isRestricted} ? [
          "Pod Security level restricted: no privilege escalation, so sudo and other setuid programs do not work in this workspace."] : [],
        ${isRestricted} && ${uid} == 0 ? [
          "remoteUser is root: the template's Pod Security level restricted forbids root; the pod meets baseline only (a cluster that enforces restricted refuses it)."] : [],
        ${r}.capabilities_listed > ${CAPABILITIES_READ} ? [format(
          "capAdd lists %d entries; only the first ${CAPABILITIES_READ} are read.", ${r}.capabilities_listed)] : [],
        ${r}.host_aliases_listed > ${HOST_ALIASES_READ} ? [format(
          "runtime.host_aliases lists %d entries; only the first ${HOST_ALIASES_READ} are read.", ${r}.host_aliases_listed)] : [],
        [for i, a in ${hostAliasChecks} : format(
          "runtime.host_aliases[%d] lists %d host names; only the first ${HOST_ALIAS_HOSTNAMES_READ} are read.", i, a.hostnames_listed)
          if a.hostnames_listed > ${HOST_ALIAS_HOSTNAMES_READ}],
        [for c in ${r}.capabilities : format("capAdd %s is not a capability name; it is not added.", jsonencode(c))
          if !contains(${capabilitiesRequested}, c)],
        ${r}.shm_size_bytes != null && !${shmValid} ? [format(
          "runtime.shm_size_bytes %s is not a positive whole number of bytes; /dev/shm gets %s.",
          jsonencode(${r}.shm_size_bytes), ${DEFAULT_SHM_SIZE})] : [],
        ${r}.hostname != "" && !${hostnameValid} ? [format(
          "runtime.hostname %s is not a valid pod hostname (a DNS label of at most 63 characters); the pod keeps its default hostname.",
          jsonencode(${r}.hostname))] : [],
        flatten([for i, a in ${hostAliasChecks} : concat(
          a.ip_valid ? [] : [format(
            "runtime.host_aliases[%d].ip %s is not an IP address; the host alias for %s is not added.",
            i, jsonencode(a.ip), jsonencode(concat(a.hostnames, a.bad_hostnames)))],
          a.ip_valid && length(a.bad_hostnames) > 0 ? [format(
            "runtime.host_aliases[%d].hostnames: %s are not valid host names; they are not added.",
            i, jsonencode(a.bad_hostnames))] : [],
          a.ip_valid && length(a.hostnames) == 0 && length(a.bad_hostnames) == 0 ? [format(
            "runtime.host_aliases[%d] for %s has no host names; it is not added.", i, jsonencode(a.ip))] : []
        )])
      )`,
    );
  }

  /**
   * The `dev` container's security context: capabilities and privileged. Spread it into the
   * container's `securityContext`; the seccomp profile is a dynamic block ({@link applyTo}).
   */
  get containerSecurityContext(): DeploymentV1SpecTemplateSpecContainerSecurityContext {
    // Pod Security baseline lets a container escalate (sudo in a Dev Container image needs
    // it), restricted does not; explicit because the provider's default, true, is invisible.
    return {
      privileged: this.privileged,
      allowPrivilegeEscalation: hcl<boolean>`!${this.restricted}`,
      capabilities: { add: this.capabilitiesAdd.asList, drop: this.dropUnderRestricted },
    };
  }

  /** `capabilities.drop` of every container: ALL under restricted, else none. */
  get dropUnderRestricted(): string[] {
    return hcl<string[]>`${this.restricted} ? ["ALL"] : []`.asList;
  }

  /**
   * Adds the dynamic blocks to a Deployment: pod `host_aliases` and the `seccomp_profile` of
   * container `containerIndex` (its `security_context` must be set). cdktf cannot put dynamic
   * blocks inside a list of blocks (the containers), so both are raw overrides.
   */
  applyTo(deployment: DeploymentV1, containerIndex: number): void {
    const pod = "spec.template.spec";
    deployment.addOverride(`${pod}.dynamic.host_aliases`, {
      for_each: this.hostAliases,
      iterator: "host_alias",
      content: { ip: "${host_alias.value.ip}", hostnames: "${host_alias.value.hostnames}" },
    });
    deployment.addOverride(
      `${pod}.container.${containerIndex}.security_context.dynamic.seccomp_profile`,
      {
        for_each: this.seccompProfiles,
        iterator: "profile",
        content: { type: "${profile.value.type}" },
      },
    );
  }
}

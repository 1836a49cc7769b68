/**
 * The base of the template policy checks: cdktf Aspects that inspect each element as it
 * will be synthesized and fail synthesis when a template breaks a promise it makes to the
 * clusters it runs on (see docs/security.md).
 *
 * Elements are read through their own `toTerraform()`, resolved against the stack: that is
 * exactly the JSON synth writes (to cdk.tf.json, or as HCL to main.tf), overrides (`addOverride`) and escape hatches
 * included, so a rule cannot be dodged by writing raw attributes.
 */
import {
  DefaultTokenResolver,
  type IAspect,
  type IConstruct,
  StringConcat,
  TerraformDataSource,
  TerraformElement,
  TerraformLocal,
  TerraformResource,
  TerraformStack,
  TerraformVariable,
  Tokenization,
} from "../core/cdk";
import { isGatedBy, soleExpression } from "./expressions";

/** A broken policy; synthesis stops with it. */
export class PolicyViolationError extends Error {
  constructor(
    /** The offending construct's path, e.g. `packer-builder/rbac/reader`. */
    readonly constructPath: string,
    /** The rule's id, e.g. `no-rbac-authoring`. */
    readonly rule: string,
    /** Why, one sentence each. */
    readonly reasons: readonly string[],
  ) {
    super(
      `template policy "${rule}" violated by ${constructPath}:\n` +
        reasons.map((r) => `  - ${r}`).join("\n"),
    );
    this.name = "PolicyViolationError";
  }
}

/** A resource or data source as it will be synthesized. */
export interface SynthesizedElement {
  /** `resource` or `data`. */
  readonly kind: "resource" | "data";
  /** e.g. `kubernetes_deployment_v1`. */
  readonly type: string;
  /** The logical name, e.g. `main`. */
  readonly name: string;
  /** `kubernetes_deployment_v1.main` or `data.coder_workspace.me`. */
  readonly address: string;
  /** The attributes, blocks and meta-arguments, tokens resolved. */
  readonly body: Record<string, unknown>;
}

/**
 * One policy: an Aspect that checks every resource and data source of the stack it is
 * added to, and throws a {@link PolicyViolationError} at the first element that breaks it.
 */
export abstract class PolicyRule implements IAspect {
  /** Short stable id used in messages and docs. */
  abstract readonly id: string;

  /** The reasons `element` breaks this rule; empty when it complies. */
  abstract check(element: SynthesizedElement, context: PolicyContext): string[];

  visit(node: IConstruct): void {
    const reasons = this.reasonsFor(node);
    if (reasons.length > 0) throw new PolicyViolationError(node.node.path, this.id, reasons);
  }

  /** The reasons `node` breaks this rule (none for constructs that are not resources). */
  reasonsFor(node: IConstruct): string[] {
    if (!isInspected(node)) return [];
    const element = synthesizedElement(node);
    if (!element) return [];
    return this.check(element, PolicyContext.of(TerraformStack.of(node)));
  }
}

/** Stack-wide facts the rules need: the locals (to follow `local.x`) and the variables. */
export class PolicyContext {
  private static readonly cache = new WeakMap<TerraformStack, PolicyContext>();

  /** A fresh view of `stack` (cached only while one synthesis runs over the same tree). */
  static of(stack: TerraformStack): PolicyContext {
    const elements = countElements(stack);
    const cached = PolicyContext.cache.get(stack);
    if (cached && cached.elementCount === elements) return cached;
    return PolicyContext.fresh(stack, elements);
  }

  /** A new view of `stack`, read now (for one pass over the tree). */
  static fresh(stack: TerraformStack, elements = countElements(stack)): PolicyContext {
    const context = new PolicyContext(stack, elements);
    PolicyContext.cache.set(stack, context);
    return context;
  }

  private readonly locals = new Map<string, unknown>();
  private readonly variables = new Map<string, Record<string, unknown>>();
  /** The stack's ServiceAccounts, as synthesized (for the role-binding-subjects rule). */
  readonly serviceAccounts: readonly ServiceAccountInStack[];
  /** Resolved limits expression → the keys its construct declared it always holds. */
  private readonly declaredLimits = new Map<string, readonly string[]>();

  private constructor(
    stack: TerraformStack,
    private readonly elementCount: number,
  ) {
    const serviceAccounts: ServiceAccountInStack[] = [];
    for (const c of stack.node.findAll()) {
      if (
        TerraformResource.isTerraformResource(c) &&
        SERVICE_ACCOUNT.test((c as TerraformResource).terraformResourceType)
      ) {
        const element = synthesizedElement(c as TerraformResource);
        const metadata = element ? singleBlock(element.body.metadata) : undefined;
        if (element && metadata) {
          serviceAccounts.push({
            address: element.address,
            provider: typeof element.body.provider === "string" ? element.body.provider : undefined,
            name: metadata.name,
            namespace: metadata.namespace,
          });
        }
      } else if (c instanceof TerraformLocal) {
        const tf = resolveIn(stack, c.toTerraform()) as { locals?: Record<string, unknown> };
        for (const [name, value] of Object.entries(tf.locals ?? {})) this.locals.set(name, value);
      } else if (c instanceof TerraformVariable) {
        const tf = resolveIn(stack, c.toTerraform()) as {
          variable?: Record<string, Record<string, unknown>>;
        };
        for (const [name, body] of Object.entries(tf.variable ?? {}))
          this.variables.set(name, body);
      }
    }
    this.serviceAccounts = serviceAccounts;
    for (const { value, keys } of LIMIT_DECLARATIONS.get(stack) ?? []) {
      const resolved = resolveIn(stack, value);
      if (typeof resolved === "string") this.declaredLimits.set(resolved.trim(), keys);
    }
  }

  /**
   * The keys declared (with {@link declareLimits}) for a limits map synthesized as
   * `expression`, or undefined when its construct declared nothing.
   */
  declaredLimitKeys(expression: string): readonly string[] | undefined {
    return this.declaredLimits.get(expression.trim());
  }

  /** The local's expression when the local is one interpolation (`"${…}"`), else undefined. */
  localExpression = (name: string): string | undefined => soleExpression(this.locals.get(name));

  /** The local's synthesized value (any JSON), or undefined when there is no such local. */
  localValue(name: string): unknown {
    return this.locals.get(name);
  }

  /** The variable's synthesized block (`type`, `default`, `sensitive`, …). */
  variable(name: string): Record<string, unknown> | undefined {
    return this.variables.get(name);
  }

  /**
   * Why `var.<name>` cannot serve as an opt-in gate, or undefined when it can: it must be
   * declared, of type bool, and off by default.
   */
  gateProblem(name: string): string | undefined {
    const v = this.variable(name);
    if (!v) return `the gate variable "${name}" is not declared`;
    if (v.type !== "bool") return `the gate variable "${name}" must have type bool`;
    if (v.default !== false) return `the gate variable "${name}" must default to false`;
    return undefined;
  }
}

/** A ServiceAccount of the stack: where it lives and what its metadata says. */
export interface ServiceAccountInStack {
  /** e.g. `kubernetes_service_account_v1.harvester_identity`. */
  readonly address: string;
  /** The provider meta-argument (`kubernetes.harvester`), undefined for the default one. */
  readonly provider: string | undefined;
  /** `metadata.name` and `metadata.namespace` as synthesized (literals or expressions). */
  readonly name: unknown;
  readonly namespace: unknown;
}

const SERVICE_ACCOUNT = /^kubernetes_service_account(_v\d+)?$/;

/** Limits maps whose keys a construct declared, by stack (see {@link declareLimits}). */
const LIMIT_DECLARATIONS = new WeakMap<
  TerraformStack,
  { readonly value: unknown; readonly keys: readonly string[] }[]
>();

/**
 * Declares the keys a container's limits map always holds when it is an expression (a
 * local computed at plan time), which the container-resource-limits rule cannot evaluate:
 * without a declaration such a map is a violation. The declaration is the construct's
 * promise; its plan tests must hold it (plan the template, read the limits). Returns
 * `limits` unchanged, to use in place.
 */
export function declareLimits<T>(scope: IConstruct, limits: T, keys: readonly string[]): T {
  const stack = TerraformStack.of(scope);
  const declared = LIMIT_DECLARATIONS.get(stack) ?? [];
  declared.push({ value: limits, keys: [...keys] });
  LIMIT_DECLARATIONS.set(stack, declared);
  return limits;
}

/** A single nested block as cdktf writes it: an object, or a one-element list. */
export function singleBlock(value: unknown): Record<string, unknown> | undefined {
  if (isRecord(value)) return value;
  if (Array.isArray(value) && isRecord(value[0])) return value[0];
  return undefined;
}

function countElements(stack: TerraformStack): number {
  return stack.node.findAll().filter((c) => c instanceof TerraformElement).length;
}

/** Whether the policies inspect `node`: every resource and every data source. */
export function isInspected(node: IConstruct): node is TerraformResource | TerraformDataSource {
  return TerraformResource.isTerraformResource(node) || node instanceof TerraformDataSource;
}

/** The element as synth writes it (JSON; main.tf holds it in HCL), or undefined when it synthesizes no block. */
export function synthesizedElement(
  resource: TerraformResource | TerraformDataSource,
): SynthesizedElement | undefined {
  const stack = TerraformStack.of(resource);
  const tf = resolveIn(stack, resource.toTerraform()) as Record<
    string,
    Record<string, Record<string, Record<string, unknown>>> | undefined
  >;
  // Data sources synthesize under `data`, resources under `resource`.
  for (const kind of ["resource", "data"] as const) {
    const types = tf[kind];
    if (!types) continue;
    for (const [type, byName] of Object.entries(types)) {
      for (const [name, body] of Object.entries(byName)) {
        const address = kind === "data" ? `data.${type}.${name}` : `${type}.${name}`;
        return { kind, type, name, address, body };
      }
    }
  }
  return undefined;
}

function resolveIn(stack: TerraformStack, value: unknown): unknown {
  return Tokenization.resolve(value, {
    scope: stack,
    preparing: false,
    resolver: new DefaultTokenResolver(new StringConcat()),
  });
}

/** Where a nested block sits, for messages: `spec.template.spec.container[0]`. */
export interface BlockVisit {
  /** The block's name (`container`, `security_context`, …). */
  readonly name: string;
  /** The block's attributes and nested blocks. */
  readonly block: Record<string, unknown>;
  /** Dotted path from the element's body, e.g. `spec.template.spec.volume[1]`. */
  readonly path: string;
  /** The `for_each` expressions of the `dynamic` blocks this block is generated by, outermost first. */
  readonly dynamicForEach: readonly unknown[];
}

/**
 * Calls `visit` for every nested object of a synthesized body: blocks (single objects or
 * lists of objects) and the `content` of `dynamic` blocks, with the path to reach it.
 */
export function walkBlocks(
  body: Record<string, unknown>,
  visit: (b: BlockVisit) => void,
  path = "",
  dynamicForEach: readonly unknown[] = [],
): void {
  for (const [key, value] of Object.entries(body)) {
    if (key === "//") continue;
    if (key === "dynamic" && isRecord(value)) {
      for (const [name, dyn] of Object.entries(value)) {
        if (!isRecord(dyn) || !isRecord(dyn.content)) continue;
        const at = join(path, `dynamic.${name}`);
        const gates = [...dynamicForEach, dyn.for_each];
        visit({ name, block: dyn.content, path: at, dynamicForEach: gates });
        walkBlocks(dyn.content, visit, at, gates);
      }
      continue;
    }
    const items = Array.isArray(value) ? value : [value];
    items.forEach((item, index) => {
      if (!isRecord(item)) return;
      const at = join(path, Array.isArray(value) ? `${key}[${index}]` : key);
      visit({ name: key, block: item, path: at, dynamicForEach });
      walkBlocks(item, visit, at, dynamicForEach);
    });
  }
}

function join(path: string, segment: string): string {
  return path === "" ? segment : `${path}.${segment}`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** True for every Kubernetes resource type, whatever its version suffix. */
export function isKubernetesType(type: string): boolean {
  return type.startsWith("kubernetes_");
}

/**
 * Whether a boolean-ish attribute turns a feature on: `true`/`"true"` do, an expression
 * may (it is then checked for a gate), absent/false/null do not.
 */
export function mayEnable(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === "false") return false;
  return true;
}

/**
 * The reason an enabled value is not allowed, or undefined when it is gated by `var.<gate>`
 * (itself, or through a dynamic block's for_each). `what` names the feature in the message.
 */
export function ungatedReason(
  value: unknown,
  dynamicForEach: readonly unknown[],
  gate: string,
  context: PolicyContext,
  what: string,
): string | undefined {
  const gatedBy = (v: unknown) => {
    const expr = soleExpression(v);
    return expr !== undefined && isGatedByVar(expr, gate, context);
  };
  if (gatedBy(value) || dynamicForEach.some(gatedBy)) {
    return context.gateProblem(gate);
  }
  return (
    `${what} is only allowed behind the opt-in variable "${gate}": write it as ` +
    `\`var.${gate} && …\` (or in a dynamic block whose for_each is \`var.${gate} ? … : []\`)`
  );
}

function isGatedByVar(expr: string, gate: string, context: PolicyContext): boolean {
  return isGatedBy(expr, gate, context.localExpression);
}

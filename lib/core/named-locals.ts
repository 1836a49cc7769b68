import { Construct, TerraformLocal, TerraformStack } from "./cdk";
import { Expr, type HclValue } from "./expr";
import { explainLocal } from "./local-comments";

/** Local names taken per stack: two constructs must never silently share a local. */
const TAKEN = new WeakMap<TerraformStack, Map<string, string>>();

/** Locals {@link NamedLocals.shared} declared per stack, by name. */
const SHARED = new WeakMap<TerraformStack, Map<string, { local: Expr<unknown>; value: string }>>();

/**
 * Creates the named locals of an apply-time mapping construct.
 *
 * Each decision is its own `local.<name>` so that operators can follow the logic
 * in Coder's template editor (`local.cpu_request`, `local.disk_size`). The name is
 * the construct id plus an optional prefix: a template uses no prefix, while a test
 * that plans many cases in one configuration gives each case its own prefix.
 */
export class NamedLocals {
  constructor(
    private readonly scope: Construct,
    /** Prepended to every local name; letters, digits and `_`. */
    public readonly prefix: string,
  ) {
    if (!/^([A-Za-z_][A-Za-z0-9_]*)?$/.test(prefix)) {
      throw new Error(`${scope.node.path}: local name prefix "${prefix}" is not a Terraform name`);
    }
  }

  /**
   * `local.<prefix><name> = expression`; `why`, when the local is not obvious, is written
   * above it in locals.tf as a `#` comment.
   */
  public add<T = unknown>(name: string, expression: HclValue, why?: string): Expr<T> {
    const fullName = this.nameOf(name);
    const stack = TerraformStack.of(this.scope);
    const taken = TAKEN.get(stack) ?? new Map<string, string>();
    TAKEN.set(stack, taken);
    const owner = taken.get(fullName);
    if (owner !== undefined) {
      throw new Error(
        `${this.scope.node.path}: local.${fullName} is already defined by ${owner}; ` +
          `give one of the constructs a localPrefix`,
      );
    }
    const local = new TerraformLocal(this.scope, name, expression);
    local.overrideLogicalId(fullName);
    if (why !== undefined) explainLocal(local, why);
    taken.set(fullName, local.node.path);
    // Readers get an expression that reads the local, never the TerraformLocal itself.
    return Expr.of<T>(local.expression);
  }

  /**
   * `local.<name> = "value"`, declared once in `scope`'s stack and without a prefix: a
   * constant string literal that many constructs (and every case of a multi-case test) read,
   * such as a regex pattern or a path, written once in locals.tf instead of at each use. The
   * value is a plain string, never a token: later calls with the same name compare their value
   * with the first one's, return the first one's local when they are equal, and refuse a
   * different value under the same name.
   */
  public static shared<T = unknown>(
    scope: Construct,
    name: string,
    value: string,
    why?: string,
  ): Expr<T> {
    const stack = TerraformStack.of(scope);
    const shared = SHARED.get(stack) ?? new Map();
    SHARED.set(stack, shared);
    const existing = shared.get(name);
    if (existing !== undefined) {
      if (existing.value !== value) {
        throw new Error(`${scope.node.path}: local.${name} is shared with another value`);
      }
      return existing.local as Expr<T>;
    }
    const local = new NamedLocals(stack, "").add<T>(name, value, why);
    shared.set(name, { local, value });
    return local;
  }

  /** The full name a local gets, e.g. for check block names. */
  public nameOf(name: string): string {
    return `${this.prefix}${name}`;
  }
}

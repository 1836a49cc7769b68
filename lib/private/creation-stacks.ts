/**
 * cdktf records a full stack trace for every token, lazy value and dynamic block it creates
 * (`captureStackTrace` in cdktf's tokens/private/stack-trace.js, with `Error.stackTraceLimit`
 * raised to the maximum), only to quote it in the message of a token that later fails to
 * resolve. In a synth of the devcontainer template that is thousands of traces: ~5% of a
 * preview's CPU, and a quarter of a synthesizing test file's, where jest formats each one
 * through its source maps. Commands that synthesize a fixed, tested template (preview) and
 * the tests skip them; a developer's `npm run synth` keeps them.
 */

/** cdktf's holder of a creation stack: a plain `{ stack: "" }` object. */
function isCreationStackHolder(target: object): boolean {
  if (target instanceof Error || Object.getPrototypeOf(target) !== Object.prototype) return false;
  const keys = Object.keys(target);
  return keys.length === 1 && keys[0] === "stack";
}

/**
 * Leaves cdktf's creation stacks empty from now on, for `errorClass` (the realm's `Error`;
 * jest test files have their own). Errors and any other object keep their full stacks.
 */
export function skipCdktfCreationStacks(errorClass: ErrorConstructor = Error): void {
  const capture = errorClass.captureStackTrace.bind(errorClass);
  errorClass.captureStackTrace = (
    target: object,
    constructorOpt?: Parameters<ErrorConstructor["captureStackTrace"]>[1],
  ): void => {
    if (!isCreationStackHolder(target)) capture(target, constructorOpt);
  };
}

/**
 * Runs `run` with cdktf's creation stacks left empty (as {@link skipCdktfCreationStacks}) and
 * puts `errorClass.captureStackTrace` back afterwards: for a synth inside a process that goes
 * on with other work (jest's global setup, which synthesizes every template for the run).
 */
export function withoutCdktfCreationStacks<T>(
  run: () => T,
  errorClass: ErrorConstructor = Error,
): T {
  const original = errorClass.captureStackTrace;
  skipCdktfCreationStacks(errorClass);
  try {
    return run();
  } finally {
    errorClass.captureStackTrace = original;
  }
}

/**
 * jest setupFiles: cdktf records a full stack trace for every token, lazy value and dynamic
 * block it creates (`captureStackTrace` in cdktf's tokens/private/stack-trace.js, with
 * `Error.stackTraceLimit` raised to the maximum), only to quote it in the message of a token
 * that later fails to resolve. Inside jest every such trace goes through jest's source-map
 * formatter, frame by frame: about a quarter of the CPU of a test file that synthesizes
 * stacks. cdktf's holder is a plain `{ stack: "" }` object; for it the trace is left empty.
 * Errors (and any other object) keep their full, source-mapped stacks.
 */
const captureStackTrace = Error.captureStackTrace.bind(Error);

function isCreationStackHolder(target: object): boolean {
  if (target instanceof Error || Object.getPrototypeOf(target) !== Object.prototype) return false;
  const keys = Object.keys(target);
  return keys.length === 1 && keys[0] === "stack";
}

Error.captureStackTrace = (
  target: object,
  constructorOpt?: Parameters<typeof Error.captureStackTrace>[1],
): void => {
  if (isCreationStackHolder(target)) return;
  captureStackTrace(target, constructorOpt);
};

/**
 * The message of the error `fn` throws, after checking it is an `ErrorClass`; fails the test
 * when `fn` throws nothing. For asserting on the exact text of synth-time errors.
 */
export function thrownMessage(
  ErrorClass: abstract new (...args: never[]) => Error,
  fn: () => unknown,
): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ErrorClass);
    return (e as Error).message;
  }
  throw new Error(`expected ${fn.toString().slice(0, 80)} to throw a ${ErrorClass.name}`);
}

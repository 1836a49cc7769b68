import { Lazy, Tokenization } from "../../lib/core/cdk";
import {
  skipCdktfCreationStacks,
  withoutCdktfCreationStacks,
} from "../../lib/private/creation-stacks";

/** An `Error` stand-in that records what it was asked to capture. */
function recordingErrorClass(): { errorClass: ErrorConstructor; captured: object[] } {
  const captured: object[] = [];
  const errorClass = {
    captureStackTrace: (target: object) => {
      captured.push(target);
    },
  } as unknown as ErrorConstructor;
  return { errorClass, captured };
}

describe("skipCdktfCreationStacks", () => {
  it("skips only cdktf's plain { stack } holder", () => {
    const { errorClass, captured } = recordingErrorClass();
    skipCdktfCreationStacks(errorClass);
    const holder = { stack: "" };
    const error = new Error("kept");
    const other = { stack: "", name: "x" };
    const nullProto = Object.assign(Object.create(null) as object, { stack: "" });
    for (const target of [holder, error, other, nullProto]) errorClass.captureStackTrace(target);
    expect(captured).toEqual([error, other, nullProto]);
    expect(captured).not.toContain(holder);
  });

  it("leaves cdktf's tokens without a creation stack and errors with theirs (jest setup)", () => {
    const lazy = Lazy.stringValue({ produce: () => "x" });
    const token = Tokenization.reverseString(lazy).tokens[0];
    expect(token.creationStack).toEqual([]);
    expect(new Error("kept").stack?.split("\n").length).toBeGreaterThan(1);
  });
});

describe("withoutCdktfCreationStacks", () => {
  it("skips the holders while it runs, then captures them again, also after a throw", () => {
    const { errorClass, captured } = recordingErrorClass();
    const during = { stack: "" };
    expect(
      withoutCdktfCreationStacks(() => {
        errorClass.captureStackTrace(during);
        return "result";
      }, errorClass),
    ).toBe("result");
    expect(captured).toEqual([]);
    expect(() =>
      withoutCdktfCreationStacks(() => {
        throw new Error("synth failed");
      }, errorClass),
    ).toThrow("synth failed");
    const after = { stack: "" };
    errorClass.captureStackTrace(after);
    expect(captured).toEqual([after]);
  });
});

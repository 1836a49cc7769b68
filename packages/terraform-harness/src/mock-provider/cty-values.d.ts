/** Types of cty-values.js, for the TypeScript tests that exercise the codec directly. */
export type CtyType = string | [string, unknown];

export declare class Unknown {
  constructor(refinement: Uint8Array | undefined);
  readonly refinement: Uint8Array | undefined;
}
export declare const UNKNOWN: Unknown;
export declare class DynamicValue {
  constructor(type: CtyType, value: unknown);
  readonly type: CtyType;
  readonly value: unknown;
}
export declare function decodeValue(bytes: Uint8Array, type: CtyType): unknown;
export declare function encodeValue(value: unknown, type: CtyType): Buffer;
export declare function fromJson(json: unknown, type: CtyType): unknown;
export declare function toJson(value: unknown, unknownAs?: unknown): unknown;
export declare function zeroValue(type: CtyType): unknown;
export declare function impliedType(value: unknown): CtyType;

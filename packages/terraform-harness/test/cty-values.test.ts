/**
 * The mock provider's msgpack codec for cty values: unknowns, refined unknowns, dynamic
 * attributes and all-attribute object encoding.
 */
import { decode } from "@msgpack/msgpack";
import {
  decodeValue,
  DynamicValue,
  encodeValue,
  fromJson,
  Unknown,
  UNKNOWN,
  zeroValue,
  type CtyType,
} from "../src/mock-provider/cty-values";

const OBJECT: CtyType = [
  "object",
  { name: "string", port: "number", extra: "dynamic", tags: ["list", "string"] },
];

describe("cty msgpack values", () => {
  it("encodes every attribute of an object, missing ones as nil", () => {
    const bytes = encodeValue({ name: "web" }, OBJECT);
    expect(decode(bytes)).toEqual({ name: "web", port: null, extra: null, tags: null });
  });

  it("encodes an unknown as ext 0 (d4 00 00)", () => {
    expect([...encodeValue(UNKNOWN, "string")]).toEqual([0xd4, 0x00, 0x00]);
  });

  it("keeps a refined unknown (ext 12) byte for byte", () => {
    const refined = Buffer.from([0xc7, 0x03, 0x0c, 0x81, 0x01, 0xc2]); // ext8, type 12, 3 bytes
    const decoded = decodeValue(refined, "string");
    expect(decoded).toBeInstanceOf(Unknown);
    expect([...encodeValue(decoded, "string")]).toEqual([...refined]);
  });

  it("decodes and re-encodes dynamic attributes as [type JSON, value]", () => {
    const wire = encodeValue(
      { name: "web", port: 80, extra: new DynamicValue(["list", "number"], [1, 2]), tags: [] },
      OBJECT,
    );
    const raw = decode(wire) as { extra: [Uint8Array, unknown] };
    expect(Buffer.from(raw.extra[0]).toString()).toBe('["list","number"]');
    expect(raw.extra[1]).toEqual([1, 2]);
    const value = decodeValue(wire, OBJECT) as { extra: DynamicValue };
    expect(value.extra).toEqual(new DynamicValue(["list", "number"], [1, 2]));
  });

  it("gives fixture JSON for a dynamic attribute its implied type", () => {
    const value = fromJson({ name: "a", extra: { enabled: true, ports: [1] } }, OBJECT) as {
      extra: DynamicValue;
    };
    expect(value.extra.type).toEqual(["object", { enabled: "bool", ports: ["tuple", ["number"]] }]);
  });

  it("uses empty values as placeholders", () => {
    expect(zeroValue(OBJECT)).toEqual({ name: "", port: 0, extra: null, tags: [] });
  });
});

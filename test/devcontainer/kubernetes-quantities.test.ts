import {
  isValidResourceName,
  QUANTITY_SUFFIX_FACTORS,
  quantityValue,
} from "../../lib/devcontainer/kubernetes-quantities";

describe("Kubernetes quantities and resource names (synth-time twins of the HCL)", () => {
  it.each([
    ["2", 2],
    ["250m", 0.25],
    [".5", 0.5],
    ["1.5Gi", 1.5 * 2 ** 30],
    ["4Gi", 4294967296],
    ["1k", 1000],
    ["1Ei", 2 ** 60],
  ])("reads %s as %d", (text, value) => {
    expect(quantityValue(text)).toBe(value);
  });

  it.each(["", "1e3", "-1", "+1", "12Q", "1.", "1 Gi", "Gi", "1K", "1gi"])("rejects %j", (text) => {
    expect(quantityValue(text)).toBeUndefined();
  });

  it("keeps exact factors for the binary suffixes", () => {
    expect(QUANTITY_SUFFIX_FACTORS.Ei).toBe("1152921504606846976");
    expect(QUANTITY_SUFFIX_FACTORS.m).toBe("0.001");
  });

  it.each([
    "cpu",
    "memory",
    "ephemeral-storage",
    "hugepages-2Mi",
    "hugepages-1Gi",
    "nvidia.com/gpu",
    "example.com/fpga_v2.1",
    `example.com/${"g".repeat(63)}`,
    `${"a".repeat(244)}/x`,
    "a-b.example.com/requests.x",
  ])("accepts the resource name %s", (name) => expect(isValidResourceName(name)).toBe(true));

  it.each([
    "gpu",
    "nvidia com/gpu",
    "Foo/bar",
    "example.com/-x",
    "hugepages-2Mb",
    "a/b'c",
    "a/b;rm",
  ])("rejects the resource name %j", (name) => expect(isValidResourceName(name)).toBe(false));

  // apimachinery IsQualifiedName and helper IsExtendedResourceName: what the API server refuses.
  it.each([
    ["a name part of 64 characters", `example.com/${"g".repeat(64)}`],
    ["a domain label starting with -", "a.-b.com/gpu"],
    ["a domain label ending with -", "a-.b.com/gpu"],
    ["an empty domain label", "example..com/x"],
    ["a domain of 254 characters", `${"a".repeat(254)}/x`],
    ["a requests. prefix", "requests.example.com/gpu"],
    ["a domain of 245 characters (requests.<name> is not qualified)", `${"a".repeat(245)}/x`],
    ["a kubernetes.io name", "foo.kubernetes.io/x"],
    // The API server's check is a plain "contains kubernetes.io/".
    ["a name that only contains kubernetes.io/", "xkubernetes.io/gpu"],
  ])("rejects an extended resource name with %s", (_why, name) =>
    expect(isValidResourceName(name)).toBe(false),
  );
});

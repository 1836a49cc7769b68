/**
 * DataVolume: the workspace's PVC. No count (it outlives stops), an address that is a
 * contract, and a size fixed at creation.
 */
import { TerraformOutput } from "../../lib/core/cdk";
import { DataVolume } from "../../lib/constructs/data-volume";
import { synthConstruct } from "./construct-stack";

const META = { labels: { "app.kubernetes.io/name": "coder-pvc" }, annotations: { note: "n" } };

it("is kubernetes_persistent_volume_claim_v1.<id> without count, ReadWriteOnce, not waiting to bind", () => {
  const tf = synthConstruct((stack) => {
    new DataVolume(stack, "home", {
      name: "coder-x-home",
      namespace: "ns",
      size: "10Gi",
      meta: META,
    });
  });
  expect(Object.keys(tf.resource.kubernetes_persistent_volume_claim_v1)).toEqual(["home"]);
  const claim = tf.resource.kubernetes_persistent_volume_claim_v1.home;
  expect(claim).not.toHaveProperty("count");
  expect(claim.wait_until_bound).toBe(false);
  expect(claim.metadata).toEqual({
    name: "coder-x-home",
    namespace: "ns",
    labels: META.labels,
    annotations: META.annotations,
  });
  expect(claim.spec).toEqual({
    access_modes: ["ReadWriteOnce"],
    resources: { requests: { storage: "10Gi" } },
  });
});

it("ignores later changes of the requested size, so a new parameter value never resizes or replaces it", () => {
  const tf = synthConstruct((stack) => {
    new DataVolume(stack, "home", { name: "n", namespace: "ns", size: "10Gi", meta: META });
  });
  expect(tf.resource.kubernetes_persistent_volume_claim_v1.home.lifecycle).toEqual({
    ignore_changes: ["spec[0].resources[0].requests"],
  });
});

it("takes its address, storage class and access modes from props, and gives its name as a reference", () => {
  const tf = synthConstruct((stack) => {
    const volume = new DataVolume(stack, "volume", {
      resourceName: "data",
      name: "n",
      namespace: "ns",
      size: "1Gi",
      meta: META,
      storageClassName: "fast",
      accessModes: ["ReadWriteOncePod"],
    });
    new TerraformOutput(stack, "claim", { value: volume.claimName });
  });
  const claim = tf.resource.kubernetes_persistent_volume_claim_v1.data;
  expect(claim.spec.storage_class_name).toBe("fast");
  expect(claim.spec.access_modes).toEqual(["ReadWriteOncePod"]);
  expect(tf.output.claim.value).toBe(
    "${kubernetes_persistent_volume_claim_v1.data.metadata[0].name}",
  );
});

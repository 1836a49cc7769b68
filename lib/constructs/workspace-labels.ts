import type { WorkspaceData } from "./workspace-data";

/** Labels and annotations of a Kubernetes object that belongs to a workspace. */
export interface WorkspaceObjectMeta {
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
}

/**
 * Labels whose values come from the workspace id alone (or are constants). A prebuilt
 * workspace keeps its id when a user claims it, while its name and every owner attribute
 * change, so only these may go where a change replaces the object or restarts the pod:
 * a Deployment's selector (ForceNew in the kubernetes provider) and its pod template.
 */
export const CLAIM_STABLE_LABEL_KEYS: readonly string[] = [
  "app.kubernetes.io/name",
  "app.kubernetes.io/instance",
  "app.kubernetes.io/part-of",
  "com.coder.resource",
  "com.coder.workspace.id",
];

/** The labels of `meta` that survive a prebuild claim unchanged ({@link CLAIM_STABLE_LABEL_KEYS}). */
export function claimStableLabels(meta: WorkspaceObjectMeta): Record<string, string> {
  return Object.fromEntries(
    CLAIM_STABLE_LABEL_KEYS.filter((key) => key in meta.labels).map((key) => [
      key,
      meta.labels[key],
    ]),
  );
}

/**
 * Coder's standard labels for workspace objects, so that `kubectl get -l
 * com.coder.workspace.id=…` and Coder's own tooling find them.
 *
 * `component` names the kind of object (`workspace` for the pod,
 * `pvc` for the data volume): `app.kubernetes.io/name=coder-<component>` and
 * `app.kubernetes.io/instance=coder-<component>-<workspace id>`. The owner's
 * e-mail is not a valid label value, so it goes into an annotation.
 */
export function workspaceObjectMeta(ws: WorkspaceData, component: string): WorkspaceObjectMeta {
  return {
    labels: {
      "app.kubernetes.io/name": `coder-${component}`,
      "app.kubernetes.io/instance": `coder-${component}-${ws.id}`,
      "app.kubernetes.io/part-of": "coder",
      "com.coder.resource": "true",
      "com.coder.workspace.id": ws.id,
      "com.coder.workspace.name": ws.name,
      "com.coder.user.id": ws.owner.id,
      "com.coder.user.username": ws.owner.name,
    },
    annotations: {
      "com.coder.user.email": ws.owner.email,
    },
  };
}

/**
 * `coder_metadata` for a workspace resource: the rows the workspace page shows under the
 * pod or the volume (what image it runs, where, how big), so a user sees what the
 * workspace is made of without cluster access.
 */
import type { Construct } from "../core/cdk";
import { Metadata } from "../../.gen/providers/coder/metadata";

export interface ResourceMetadataProps {
  /** The resource the rows belong to (its `id`). */
  readonly resourceId: string;
  /** Row label → value, shown in this order. */
  readonly items: Readonly<Record<string, string>>;
  /** As the resource's: start_count for the pod, none for the volume. @default no count */
  readonly count?: number;
  /** @default none (Coder picks one by resource type) */
  readonly icon?: string;
}

/** `coder_metadata.<id>`. */
export function resourceMetadata(scope: Construct, id: string, props: ResourceMetadataProps) {
  return new Metadata(scope, id, {
    count: props.count,
    resourceId: props.resourceId,
    icon: props.icon,
    item: Object.entries(props.items).map(([key, value]) => ({ key, value })),
  });
}

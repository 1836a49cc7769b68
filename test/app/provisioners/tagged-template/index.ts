import { Construct, TerraformVariable } from "../../../../lib/core/cdk";
import { escapeTemplateLiteral } from "../../../../lib/core/escape";
import { coderProvider } from "../../../../lib/constructs/providers";
import { TemplateStack } from "../../../../lib/constructs/template-stack";
import { WorkspaceParameter } from "../../../../lib/constructs/workspace-parameter";
import { WorkspaceTags } from "../../../../app/workspace-tags";
import type { TemplateDefinition } from "../../../../app/registry";

/** How the test varies the tagged template, to hit each check of the tag renderer. */
export interface TaggedTemplateProps {
  /** @default false */
  readonly regionMutable?: boolean;
  /** @default "eu-west" */
  readonly regionDefault?: string;
  /** Extra tags, merged over the standard ones. @default {} */
  readonly extraTags?: (stack: TaggedTemplate) => Record<string, string>;
}

/** A minimal template: a region parameter and a variable, both routing the workspace. */
export class TaggedTemplate extends TemplateStack {
  public readonly region: WorkspaceParameter;
  public readonly pool: TerraformVariable;
  public readonly secret: TerraformVariable;

  constructor(scope: Construct, id: string, props: TaggedTemplateProps = {}) {
    super(scope, id, {
      sourceDir: "test/app/provisioners/tagged-template",
      frontMatter: { displayName: "Tagged", description: "Test template", icon: "/icon/k8s.png" },
    });
    coderProvider(this);
    this.pool = new TerraformVariable(this, "pool", {
      type: "string",
      default: "general",
      description: "Provisioner pool.",
    });
    this.secret = new TerraformVariable(this, "api_token", { type: "string", sensitive: true });
    this.region = new WorkspaceParameter(this, "region", {
      order: 1,
      displayName: "Region",
      description: escapeTemplateLiteral(
        'Where it runs; "quotes", \\backslashes\\ and ${literal} braces survive.',
      ),
      default: props.regionDefault ?? "eu-west",
      mutable: props.regionMutable ?? false,
      options: [
        { name: "Europe", value: "eu-west" },
        { name: "US", value: "us-east" },
      ],
    });
    new WorkspaceParameter(this, "size", {
      order: 2,
      displayName: "Size",
      description: "Stays in cdk.tf.json: no tag reads it.",
      default: "2",
      mutable: true,
    });
    new WorkspaceTags(this, "routing", {
      tags: {
        region: this.region.value,
        pool: this.pool.stringValue,
        team: "platform ${not-interpolated}",
        ...(props.extraTags?.(this) ?? {}),
      },
    });
  }
}

/** Registry entry for synthTemplates({ templates: [...] }). */
export function taggedTemplate(props: TaggedTemplateProps = {}): TemplateDefinition {
  return {
    id: "tagged",
    create: (scope) => new TaggedTemplate(scope, "tagged", props),
    provisioners: { tags: { cluster: "edge" }, reason: "test" },
  };
}

import type { Construct } from "../lib/cdk";
import type { TemplateStack } from "../lib/template-stack";
import { KubernetesTemplate } from "./kubernetes";

/** A template this project can synthesize: its stack id is its folder under templates/. */
export interface TemplateDefinition {
  readonly id: string;
  create(scope: Construct): TemplateStack;
}

/** Every template, in the order they are synthesized. */
export const TEMPLATES: readonly TemplateDefinition[] = [
  { id: "kubernetes", create: (scope) => new KubernetesTemplate(scope, "kubernetes") },
];

/** Types of validation-rules.js (the mock's rule table). */
export interface ValidationRule {
  readonly types: readonly string[];
  readonly paths: readonly string[];
  readonly check: { readonly kind: string; readonly [option: string]: unknown };
  readonly source: string;
}
export declare const RULES: readonly ValidationRule[];
export declare const PARAMETER_RULES: { readonly source: string };
export declare const FORCE_NEW: Readonly<Record<string, readonly string[]>>;
export declare const FORCE_NEW_SOURCE: Readonly<Record<string, string>>;
export declare const POD_SPEC: Readonly<
  Record<string, { readonly pod: string; readonly podmeta: string | null }>
>;
export declare const CONTAINERS: readonly string[];

/** Types of validation.js and validation-rules.js, for the TypeScript tests of the rule table. */
export interface MockDiagnostic {
  readonly severity: "ERROR" | "WARNING";
  readonly summary: string;
  readonly detail: string;
  readonly attribute?: { readonly steps: readonly Record<string, string | number>[] };
}
export interface AttributePath {
  readonly steps: readonly (
    { readonly attribute_name: string } | { readonly element_key_int: number }
  )[];
}
export declare function validateConfig(typeName: string, config: unknown): MockDiagnostic[];
export declare function validateParameter(config: unknown, value: unknown): MockDiagnostic[];
export declare function validateSecret(
  config: unknown,
  value: unknown,
  transition: unknown,
): MockDiagnostic[];
export declare function requiresReplace(
  typeName: string,
  prior: unknown,
  planned: unknown,
): AttributePath[];
export declare function expandSecurityContexts(typeName: string, planned: unknown): unknown;

/** Types of kubernetes-syntax.js: apimachinery's name, label and quantity rules. */
export declare function dnsSubdomain(value: string): string[];
export declare function dnsLabel(value: string): string[];
export declare function qualifiedName(value: string): string[];
export declare function labelValue(value: string): string[];
export declare function envVarName(value: string): string[];
export declare function portNumber(value: unknown): string[];
export declare function portName(value: string): string[];
export declare function parseQuantity(text: string): { value?: number; error?: string };
export declare function quantity(value: string): string[];

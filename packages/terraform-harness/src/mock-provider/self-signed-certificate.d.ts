/** Types of self-signed-certificate.js (the mock provider is plain JavaScript). */
export declare function createSelfSignedCertificate(randomBytes?: (size: number) => Buffer): {
  readonly certPem: string;
  readonly keyPem: string;
  readonly certDerBase64Raw: string;
};

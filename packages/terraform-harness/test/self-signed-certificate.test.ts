/**
 * The mock's AutoMTLS certificate: whatever the random serial, node's TLS (OpenSSL) loads it,
 * which needs DER's rules for the serial: positive and minimally encoded (no leading 0x00
 * before a byte below 0x80). A random first byte of 0 broke ~1 plugin start in 400.
 */
import { X509Certificate } from "node:crypto";
import { createSecureContext } from "node:tls";
import { createSelfSignedCertificate } from "../src/mock-provider/self-signed-certificate";

/** Random bytes that start with `first`, then `second`, then 0x5a. */
const bytesStartingWith = (first: number, second: number) => (size: number) => {
  const bytes = Buffer.alloc(size, 0x5a);
  bytes[0] = first;
  bytes[1] = second;
  return bytes;
};

it.each([
  [0x00, 0x00],
  [0x00, 0x7f],
  [0x80, 0x00],
  [0xff, 0xff],
  [0x12, 0x34],
])("loads with a serial whose random bytes start %i, %i", (first, second) => {
  const certificate = createSelfSignedCertificate(bytesStartingWith(first, second));
  expect(() =>
    createSecureContext({ key: certificate.keyPem, cert: certificate.certPem }),
  ).not.toThrow();
  const serial = new X509Certificate(certificate.certPem).serialNumber;
  // 16 bytes, the first one 0x01–0x7f: positive, and no padding byte.
  expect(serial).toMatch(/^[0-7][0-9A-F]{31}$/);
  expect(serial.startsWith("00")).toBe(false);
});

it("is a CA for localhost, as go-plugin's AutoMTLS expects", () => {
  const x509 = new X509Certificate(createSelfSignedCertificate().certPem);
  expect(x509.ca).toBe(true);
  expect(x509.checkHost("localhost")).toBe("localhost");
  expect(x509.checkIP("127.0.0.1")).toBe("127.0.0.1");
});

/**
 * A self-signed ECDSA P-256 server certificate for go-plugin's AutoMTLS, written as DER by
 * hand so that neither openssl nor a certificate library is needed.
 *
 * go-plugin dials with ServerName "localhost" and trusts exactly the certificate the plugin
 * prints in its handshake line, so the certificate is its own CA: CN/SAN localhost (and
 * 127.0.0.1), CA:TRUE, key usage digitalSignature + keyCertSign, EKU serverAuth + clientAuth.
 */
import * as crypto from "node:crypto";

// DER tags.
const SEQUENCE = 0x30;
const SET = 0x31;
const INTEGER = 0x02;
const BIT_STRING = 0x03;
const OCTET_STRING = 0x04;
const BOOLEAN = 0x01;
const OID = 0x06;
const UTF8_STRING = 0x0c;
const UTC_TIME = 0x17;

function der(tag: number, ...contents: Buffer[]): Buffer {
  const body = Buffer.concat(contents);
  return Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
}

function derLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n >>= 8) bytes.unshift(n & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split(".").map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const chunk = [arc & 0x7f];
    for (let n = arc >> 7; n > 0; n >>= 7) chunk.unshift((n & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(OID, Buffer.from(bytes));
}

function utcTime(date: Date): Buffer {
  const iso = date.toISOString(); // 2025-01-02T03:04:05.678Z
  const text =
    iso.slice(2, 4) +
    iso.slice(5, 7) +
    iso.slice(8, 10) +
    iso.slice(11, 13) +
    iso.slice(14, 16) +
    iso.slice(17, 19) +
    "Z";
  return der(UTC_TIME, Buffer.from(text, "ascii"));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  const parts = [oid(id)];
  if (critical) parts.push(der(BOOLEAN, Buffer.from([0xff])));
  parts.push(der(OCTET_STRING, value));
  return der(SEQUENCE, ...parts);
}

/** The certificate and key as PEM (for the TLS server), the DER as unpadded base64 (for the handshake line). */
export interface SelfSignedCertificate {
  readonly certPem: string;
  readonly keyPem: string;
  readonly certDerBase64Raw: string;
}

/** `randomBytes`: the source of the serial number (tests). */
export function createSelfSignedCertificate(
  randomBytes: (size: number) => Buffer = crypto.randomBytes,
): SelfSignedCertificate {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
  const ecdsaWithSha256 = der(SEQUENCE, oid("1.2.840.10045.4.3.2"));
  const name = der(
    SEQUENCE,
    der(SET, der(SEQUENCE, oid("2.5.4.3"), der(UTF8_STRING, Buffer.from("localhost")))),
  );
  const now = Date.now();
  const serial = randomBytes(16);
  // Positive, and minimally encoded as DER requires: a first byte of 0 (then a redundant
  // leading zero) made OpenSSL refuse the certificate ("illegal padding") in ~1 of 400
  // plugin starts, and the mock exited before its handshake line.
  serial[0] = (serial[0] ?? 0) & 0x7f || 0x01;
  const extensions = der(
    SEQUENCE,
    extension("2.5.29.19", true, der(SEQUENCE, der(BOOLEAN, Buffer.from([0xff])))), // CA:TRUE
    extension("2.5.29.15", true, der(BIT_STRING, Buffer.from([0x02, 0x84]))), // digitalSignature, keyCertSign
    extension(
      "2.5.29.37",
      false,
      der(SEQUENCE, oid("1.3.6.1.5.5.7.3.1"), oid("1.3.6.1.5.5.7.3.2")),
    ),
    extension(
      "2.5.29.17",
      false,
      der(SEQUENCE, der(0x82, Buffer.from("localhost")), der(0x87, Buffer.from([127, 0, 0, 1]))),
    ),
  );
  const tbs = der(
    SEQUENCE,
    der(0xa0, der(INTEGER, Buffer.from([2]))), // v3
    der(INTEGER, serial),
    ecdsaWithSha256,
    name,
    der(SEQUENCE, utcTime(new Date(now - 60_000)), utcTime(new Date(now + 365 * 24 * 3600_000))),
    name,
    publicKey.export({ type: "spki", format: "der" }),
    der(0xa3, extensions),
  );
  const signature = crypto.sign("sha256", tbs, privateKey);
  const certificate = der(
    SEQUENCE,
    tbs,
    ecdsaWithSha256,
    der(BIT_STRING, Buffer.from([0]), signature),
  );
  const base64 = certificate.toString("base64");
  return {
    certPem: `-----BEGIN CERTIFICATE-----\n${(base64.match(/.{1,64}/g) ?? []).join("\n")}\n-----END CERTIFICATE-----\n`,
    // A PEM export is a string (the type says string or Buffer for every format).
    keyPem: privateKey.export({ type: "pkcs8", format: "pem" }) as string,
    certDerBase64Raw: base64.replace(/=+$/, ""),
  };
}

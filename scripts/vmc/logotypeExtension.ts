/**
 * DER of an RFC 3709 logotype extension carrying an SVG, the way a Verified Mark Certificate embeds the brand
 * logo. Used by the demo VMC generator (scripts/generateDemoVmc.ts) and by the BIMI tests' certificate factory.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';

// The ASN.1 classes @postalsys/vmc itself parses the logotype with, loaded from its own dependency tree.
const vmcRequire = createRequire(createRequire(import.meta.url).resolve('@postalsys/vmc'));
type Ctor = new (params?: Record<string, unknown>) => object;
const schema = vmcRequire('@peculiar/asn1-schema') as {
  AsnSerializer: { serialize(value: object): ArrayBuffer };
  OctetString: new (bytes: Uint8Array) => object;
};
const x509 = vmcRequire('@peculiar/asn1-x509') as { AlgorithmIdentifier: Ctor };
const logotype = vmcRequire('@peculiar/asn1-x509-logotype') as Record<
  'LogotypeExtn' | 'LogotypeInfo' | 'LogotypeData' | 'LogotypeImage' | 'LogotypeDetails' | 'HashAlgAndValue',
  Ctor
>;

const SHA256_OID = '2.16.840.1.101.3.4.2.1';

/** DER of a logotype extension embedding `svg` as a gzipped data: URI, with its SHA-256 (or a wrong one). */
export function logotypeExtensionDer(svg: string, options: { corruptHash?: boolean } = {}): Buffer {
  const gz = gzipSync(Buffer.from(svg));
  const hash = createHash('sha256')
    .update(options.corruptHash ? 'something else' : svg)
    .digest();
  const details = new logotype.LogotypeDetails({
    mediaType: 'image/svg+xml',
    logotypeHash: [
      new logotype.HashAlgAndValue({
        hashAlg: new x509.AlgorithmIdentifier({ algorithm: SHA256_OID }),
        hashValue: new schema.OctetString(hash),
      }),
    ],
    logotypeURI: [`data:image/svg+xml;base64,${gz.toString('base64')}`],
  });
  const ext = new logotype.LogotypeExtn({
    subjectLogo: new logotype.LogotypeInfo({
      direct: new logotype.LogotypeData({ image: [new logotype.LogotypeImage({ imageDetails: details })] }),
    }),
  });
  return Buffer.from(schema.AsnSerializer.serialize(ext));
}

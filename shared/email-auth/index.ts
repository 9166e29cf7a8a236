/**
 * shared/email-auth: browser-safe parsers, validators and builders for DMARC, SPF, MTA-STS, TLS-RPT and BIMI,
 * the DNS resolver contract and SPF flattening. Import from here or from the individual files.
 */
export * from './bimiRecord.ts';
export * from './bimiSvg.ts';
export * from './dmarcRecord.ts';
export * from './dns.ts';
export * from './domainName.ts';
export * from './hostedMtaSts.ts';
export * from './hostedSpf.ts';
export * from './ipAddress.ts';
export * from './issues.ts';
export * from './knownSenders.ts';
export * from './mtaStsPolicy.ts';
export * from './protocols.ts';
export * from './publishedRecord.ts';
export * from './spfFlatten.ts';
export * from './spfRecord.ts';
export * from './tagList.ts';
export * from './tlsRptRecord.ts';

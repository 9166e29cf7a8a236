// Public surface of the signal schemas: the catalog, the decoder and every payload type.
export * from './catalog.ts';
export * from './decode.ts';
export * from './primitives.ts';
export * from './domains.ts';
export * from './health.ts';
export * from './securityScore.ts';
export * from './sendingSources.ts';
export * from './mailVolume.ts';
export * from './dnsTimeline.ts';
export * from './tlsRpt.ts';
export * from './dashboardCache.ts';

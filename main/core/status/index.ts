// The one status model (see DESIGN.md "status"): every surface — portfolio, domain header, tray,
// notifications, CLI, export — shows what these functions derive, never a word chosen on its own.
export * from './evidence.ts';
export * from './dnsWatchEvidence.ts';
export * from './protocolStatus.ts';
export * from './pending.ts';
export * from './verdict.ts';
export * from './domainStatus.ts';
export * from './portfolio.ts';
export * from './tray.ts';

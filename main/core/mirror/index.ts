// Public surface of the mirror.
export { openMirror, openMirrorDatabase, type OpenMirrorOptions } from './openMirror.ts';
export { MIGRATIONS, SCHEMA_VERSION, migrate, type Migration } from './migrations.ts';
export { MirrorError, type MirrorErrorCode } from './mirrorError.ts';
export * from './types.ts';

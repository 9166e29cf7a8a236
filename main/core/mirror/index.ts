// Public surface of the mirror.
export { openMirror } from './openMirror.ts';
export * from './types.ts';

import { openMirror as openCoreMirror, type OpenMirrorOptions } from '../../main/core/mirror/openMirror.ts';
import type { Mirror } from '../../main/core/mirror/types.ts';
import { MIRROR_REGISTRY } from '../../main/core/runtime/registry.ts';

/** openMirror with the registries the runtime passes (every signal, every rule), as tests open it. */
export function openMirror(file: string, options: OpenMirrorOptions = {}): Mirror {
  return openCoreMirror(file, MIRROR_REGISTRY, options);
}

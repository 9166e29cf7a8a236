// ESLint rule "layering/imports": DESIGN.md's one-way import map, enforced. Every import (static, dynamic,
// re-export, require) is resolved against the importing file, so `../../cli/args.ts` from main/core/sync is
// recognised as main/cli even though its text never says "main" — path globs on the specifier cannot see that.
import { isBuiltin } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';

/** Layers by folder, most specific first. Files elsewhere (root configs) are not checked. */
const LAYERS = [
  'main/core',
  'main/electron',
  'main/host',
  'main/cli',
  'renderer',
  'shared',
  'service',
  'scripts',
  'test',
];

/** What each layer must not import, with the reason the message gives. */
export const FORBIDDEN = {
  'main/core': {
    layers: ['main/electron', 'main/host', 'main/cli', 'service', 'renderer', 'test', 'scripts'],
    packages: ['electron', 'svelte'],
    why: 'main/core is the pure-Node engine every shell shares',
  },
  'main/cli': {
    layers: ['main/electron', 'main/host', 'service', 'renderer', 'test', 'scripts'],
    packages: ['electron'],
    why: 'the CLI is a shell over main/core',
  },
  'main/host': {
    layers: ['main/electron', 'main/cli', 'service', 'renderer', 'test', 'scripts'],
    packages: ['electron'],
    why: 'the browser host is a shell over main/core',
  },
  'main/electron': {
    layers: ['main/host', 'main/cli', 'service', 'renderer', 'test', 'scripts'],
    packages: [],
    why: 'the Electron shell talks to main/core and shared only',
  },
  renderer: {
    layers: ['main/core', 'main/electron', 'main/host', 'main/cli', 'service', 'test', 'scripts'],
    packages: ['electron'],
    builtins: true,
    why: 'the renderer talks to main only through window.authwatch (shared/bridge)',
  },
  service: {
    layers: ['main/core', 'main/electron', 'main/host', 'main/cli', 'renderer', 'test', 'scripts'],
    packages: ['electron'],
    why: 'the reference service stands alone beside the app',
  },
  shared: {
    layers: ['main/core', 'main/electron', 'main/host', 'main/cli', 'service', 'renderer', 'test', 'scripts'],
    packages: ['electron'],
    why: 'shared/ is imported by every side and depends on none',
  },
  scripts: {
    layers: ['test', 'renderer'],
    packages: [],
    why: 'nothing outside test/ imports test/',
  },
};

function layerOf(repoPath) {
  const p = repoPath.split(sep).join('/');
  return LAYERS.find((layer) => p === layer || p.startsWith(layer + '/')) ?? null;
}

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** What a specifier names: a layer of this repository, a Node built-in, or a package. */
function targetOf(specifier, fromFile, root) {
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    const target = relative(root, resolve(dirname(fromFile), specifier));
    if (target.startsWith('..')) return { kind: 'outside' };
    return { kind: 'layer', layer: layerOf(target) };
  }
  if (isBuiltin(specifier)) return { kind: 'builtin' };
  return { kind: 'package', name: packageName(specifier) };
}

const rule = {
  meta: {
    type: 'problem',
    docs: {
      description: "Imports follow DESIGN.md's layering (renderer → shared, main/* → main/core → shared)",
    },
    schema: [],
    messages: {
      layer: '{{from}} must not import {{to}} ({{why}}).',
      builtin: '{{from}} must not import the Node built-in “{{name}}” ({{why}}).',
      package: '{{from}} must not import “{{name}}” ({{why}}).',
    },
  },
  create(context) {
    const root = context.cwd;
    const file = context.filename;
    const from = layerOf(relative(root, file));
    const forbidden = from ? FORBIDDEN[from] : undefined;
    if (!forbidden) return {};

    function check(node, source) {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const target = targetOf(source.value, file, root);
      const data = { from, why: forbidden.why };
      if (target.kind === 'layer' && target.layer && forbidden.layers.includes(target.layer))
        context.report({ node: source, messageId: 'layer', data: { ...data, to: `${target.layer}/` } });
      else if (target.kind === 'builtin' && forbidden.builtins)
        context.report({ node: source, messageId: 'builtin', data: { ...data, name: source.value } });
      else if (target.kind === 'package' && forbidden.packages.includes(target.name))
        context.report({ node: source, messageId: 'package', data: { ...data, name: target.name } });
    }

    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require')
          check(node, node.arguments[0]);
      },
    };
  },
};

/** The shells over the app core, and the one module of it they may import. */
const SHELLS = ['main/electron', 'main/host', 'main/cli', 'scripts'];
const CORE_SURFACE = ['main/core', 'main/core/index', 'main/core/index.ts'];

/** Visits every import-like specifier of a file (static, dynamic, re-export, require). */
function visitImports(check) {
  return {
    ImportDeclaration: (node) => check(node.source),
    ExportNamedDeclaration: (node) => check(node.source),
    ExportAllDeclaration: (node) => check(node.source),
    ImportExpression: (node) => check(node.source),
    CallExpression: (node) => {
      if (node.callee.type === 'Identifier' && node.callee.name === 'require') check(node.arguments[0]);
    },
  };
}

const publicSurface = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Shells (main/electron, main/host, main/cli, scripts) import main/core only through main/core/index.ts',
    },
    schema: [],
    messages: {
      surface:
        '{{from}} must import main/core through its public surface, main/core/index.ts, not {{target}} ' +
        '(export what the shell needs there; openRuntime() assembles the app).',
    },
  },
  create(context) {
    const root = context.cwd;
    const file = context.filename;
    const from = layerOf(relative(root, file));
    if (!SHELLS.includes(from)) return {};
    return visitImports((source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      if (!source.value.startsWith('.') && !source.value.startsWith('/')) return;
      const target = relative(root, resolve(dirname(file), source.value))
        .split(sep)
        .join('/');
      if (layerOf(target) !== 'main/core' || CORE_SURFACE.includes(target)) return;
      context.report({ node: source, messageId: 'surface', data: { from, target } });
    });
  },
};

/** The plugin object eslint.config.js registers as "layering". */
export default { rules: { imports: rule, 'public-surface': publicSurface } };

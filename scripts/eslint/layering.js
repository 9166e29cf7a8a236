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

/** Visits every import of a file given by path (relative or absolute), with its repository-relative target. */
function visitPathImports(context, check) {
  const root = context.cwd;
  const file = context.filename;
  return visitImports((source) => {
    if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
    if (!source.value.startsWith('.') && !source.value.startsWith('/')) return;
    check(
      source,
      relative(root, resolve(dirname(file), source.value))
        .split(sep)
        .join('/'),
    );
  });
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
    return visitPathImports(context, (source, target) => {
      if (layerOf(target) !== 'main/core' || CORE_SURFACE.includes(target)) return;
      context.report({ node: source, messageId: 'surface', data: { from, target } });
    });
  },
};

/**
 * main/core's folders, lowest first: a folder imports its own files and the folders below it, never one above
 * (DESIGN.md, README "Layout", CONTRIBUTING "Layers inside core"). Why this order: signals/ declares what is
 * polled (names, payload types, definitions, the registry, the loader of a folder of definition files);
 * alerts/ is the rule engine over them, alerts/rules/ the rules that are not a signal's own; mirror/ stores and
 * queries (and runs a signal's rules in the write's transaction, with the registries it is given by
 * openMirror: it imports none), and holds what it walks inside its transactions — the routing table and
 * escalation (mirror/routing.ts, escalation.ts) — and the signal kits that store (extraSignal, dnsRuleState);
 * status/ derives the one status model from what the mirror holds (the mirror keeps each domain's status by
 * the status model in the registry openMirror is given, never importing status/); signals/defs/ are the
 * signal files the registry loads at run time (they store through the mirror); sync/ polls; accounts/,
 * delivery/, dnswatch/, export/, network/, livechecks/ are services over those (what a lower one needs of a
 * higher one is passed in: the metrics get the live checks; livechecks/ruleRegistry.ts joins the live checks'
 * rules to alerts/'s and the words of alerts below it are given that catalogue); app/ (with app.ts) is the facade — its account
 * service too, which speaks the facade's errors; runtime/ assembles it (and the registries the mirror is
 * opened with); index.ts is the public surface. Most specific first: a file of signals/defs/ is in "signals/defs".
 */
export const CORE_ORDER = [
  'signals',
  'alerts',
  'alerts/rules',
  'mirror',
  'status',
  'signals/defs',
  'sync',
  'accounts',
  'delivery',
  'dnswatch',
  'export',
  'network',
  'livechecks',
  'app',
  'runtime',
  'index',
];

/** The folder of CORE_ORDER a path under main/core/ belongs to (app.ts is the facade's, index.ts the top). */
function coreFolderOf(corePath) {
  if (corePath === 'app.ts') return 'app';
  if (corePath === 'index.ts') return 'index';
  return [...CORE_ORDER]
    .sort((a, b) => b.length - a.length)
    .find((folder) => corePath.startsWith(folder + '/'));
}

const coreOrder = {
  meta: {
    type: 'problem',
    docs: { description: "main/core's folders import only folders below them (CORE_ORDER)" },
    schema: [],
    messages: {
      upward:
        'main/core/{{from}} must not import main/core/{{to}}: {{fromFile}} imports {{toFile}} ' +
        "({{to}} is above {{from}} in core's order: {{order}}). Move the code to the lower folder, or pass it in " +
        '(as openMirror is given its registries).',
    },
  },
  create(context) {
    const here = relative(context.cwd, context.filename).split(sep).join('/');
    if (!here.startsWith('main/core/')) return {};
    const fromPath = here.slice('main/core/'.length);
    const from = coreFolderOf(fromPath);
    if (!from) return {};
    return visitPathImports(context, (source, target) => {
      if (!target.startsWith('main/core/')) return;
      const toPath = target.slice('main/core/'.length);
      const to = coreFolderOf(toPath);
      if (!to || to === from || CORE_ORDER.indexOf(to) <= CORE_ORDER.indexOf(from)) return;
      context.report({
        node: source,
        messageId: 'upward',
        data: {
          from: `${from}/`,
          to: `${to}/`,
          fromFile: here,
          toFile: target,
          order: CORE_ORDER.join(' < '),
        },
      });
    });
  },
};

/** The plugin object eslint.config.js registers as "layering". */
export default { rules: { imports: rule, 'public-surface': publicSurface, 'core-order': coreOrder } };

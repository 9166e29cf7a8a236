/**
 * BIMI logo checks: the SVG Tiny Portable/Secure profile (draft-svg-tiny-ps-abrotman) that mailbox providers
 * require, plus a best-effort conversion of an ordinary SVG into it. Browser-safe (fast-xml-parser, TextEncoder).
 */
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';

/** Mailbox providers refuse BIMI logos larger than 32 KB. */
export const BIMI_SVG_MAX_BYTES = 32 * 1024;

export type BimiSvgIssueCode =
  | 'xml_malformed'
  | 'not_svg'
  | 'svg_namespace'
  | 'base_profile'
  | 'version'
  | 'title_missing'
  | 'script'
  | 'external_reference'
  | 'animation'
  | 'raster_image'
  | 'disallowed_element'
  | 'entity_declaration'
  | 'root_xy'
  | 'viewbox_missing'
  | 'viewbox_not_square'
  | 'too_large';

export interface BimiSvgIssue {
  code: BimiSvgIssueCode;
  message: string;
}

export interface BimiSvgCheck {
  valid: boolean;
  issues: BimiSvgIssue[];
  /** UTF-8 size of the file. */
  size_bytes: number;
  /** Text of the root `<title>`, or null. */
  title: string | null;
}

export interface BimiSvgConversion {
  /** The converted SVG, or null when the input could not be parsed as an SVG document. */
  svg: string | null;
  /** What was changed, in words, for the user. */
  changes: string[];
  /** The Tiny PS check of the converted file (of the input when conversion was impossible). */
  check: BimiSvgCheck;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const ANIMATION = new Set(['animate', 'animatemotion', 'animatetransform', 'animatecolor', 'set', 'discard']);
// Elements that SVG Tiny 1.2 PS leaves out (or that can carry foreign content), other than script/animation/image.
const DISALLOWED = new Set(['foreignobject', 'iframe', 'video', 'audio', 'canvas', 'handler', 'listener']);

const OPTIONS = {
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // Entities stay as written: nothing is expanded (no entity bombs) and the output keeps the author's escaping.
  processEntities: false,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
} as const;

type Attrs = Record<string, string>;
/** A node of fast-xml-parser's preserveOrder tree: one key naming the element (or #text), plus ':@' attributes. */
type XmlNode = Record<string, unknown> & { ':@'?: Attrs };

function elementName(node: XmlNode): string | null {
  const key = Object.keys(node).find((k) => k !== ':@');
  return key && !key.startsWith('#') && !key.startsWith('?') ? key : null;
}

function children(node: XmlNode, name: string): XmlNode[] {
  const c = node[name];
  return Array.isArray(c) ? (c as XmlNode[]) : [];
}

// Local name, lower-cased, so that `svg:script` and `Script` are caught too.
function localName(name: string): string {
  return (name.includes(':') ? name.slice(name.indexOf(':') + 1) : name).toLowerCase();
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function textOf(node: XmlNode, name: string): string {
  return children(node, name)
    .map((c) => (typeof c['#text'] === 'string' ? c['#text'] : ''))
    .join('');
}

function isHrefAttr(name: string): boolean {
  return name === 'href' || name.toLowerCase().endsWith(':href');
}

function isLocalRef(value: string): boolean {
  return value.trim().startsWith('#');
}

// A data: URI is embedded, not fetched; where it is still forbidden (<image>) another rule says so.
function isExternalHref(value: string): boolean {
  return !isLocalRef(value) && !/^\s*data:/i.test(value);
}

const IMPORT = /@import\s+(?:url\(\s*)?(['"]?)([^'")\s;]*)\1\s*\)?[^;]*;?/gi;

// References that leave the document: @import rules and url(...) targets that are not `#id`.
function externalUrls(value: string): string[] {
  const out = [...value.matchAll(IMPORT)].map((m) => `@import ${m[2] ?? ''}`);
  for (const m of value.replace(IMPORT, '').matchAll(/url\(\s*(['"]?)([^'")]*)\1\s*\)/gi)) {
    if (!isLocalRef(m[2] ?? '')) out.push(m[2] ?? '');
  }
  return out;
}

function parseViewBox(value: string | undefined): number[] | null {
  if (value === undefined) return null;
  const nums = value
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  return nums.length === 4 && nums.every(Number.isFinite) ? nums : null;
}

function parseDocument(svg: string): { doc: XmlNode[]; root: XmlNode | null } | { error: string } {
  const valid = XMLValidator.validate(svg);
  if (valid !== true) return { error: `line ${valid.err.line}: ${valid.err.msg}` };
  let doc: XmlNode[];
  try {
    doc = new XMLParser(OPTIONS).parse(svg) as XmlNode[];
  } catch (error) {
    // The validator passes some markup the parser then refuses (`<!'` inside an element, found by fuzzing).
    return { error: error instanceof Error ? error.message.split('\n')[0]! : String(error) };
  }
  const root = doc.find((n) => elementName(n) !== null) ?? null;
  return { doc, root };
}

/** Checks an SVG against the SVG Tiny PS rules BIMI uses; never throws. */
export function checkBimiSvg(svg: string): BimiSvgCheck {
  const issues: BimiSvgIssue[] = [];
  const add = (code: BimiSvgIssueCode, message: string) => {
    if (!issues.some((i) => i.code === code && i.message === message)) issues.push({ code, message });
  };
  const size = new TextEncoder().encode(svg).length;
  if (size > BIMI_SVG_MAX_BYTES)
    add('too_large', `the file is ${size} bytes; the limit is ${BIMI_SVG_MAX_BYTES} (32 KB)`);
  if (/<!ENTITY/i.test(svg))
    add('entity_declaration', 'the file declares XML entities, which BIMI logos may not use');

  const parsed = parseDocument(svg);
  if ('error' in parsed) {
    add('xml_malformed', `not well-formed XML (${parsed.error})`);
    return { valid: false, issues, size_bytes: size, title: null };
  }
  const root = parsed.root;
  const rootName = root ? elementName(root) : null;
  if (!root || !rootName || localName(rootName) !== 'svg') {
    add('not_svg', 'the root element is not <svg>');
    return { valid: false, issues, size_bytes: size, title: null };
  }

  const attrs = root[':@'] ?? {};
  if (attrs.xmlns !== SVG_NS) add('svg_namespace', `the root must declare xmlns="${SVG_NS}"`);
  if (attrs.baseProfile !== 'tiny-ps') add('base_profile', 'the root must have baseProfile="tiny-ps"');
  if (attrs.version !== '1.2') add('version', 'the root must have version="1.2"');
  if ('x' in attrs || 'y' in attrs) add('root_xy', 'the root <svg> must not have x or y attributes');
  const box = parseViewBox(attrs.viewBox);
  if (!box) add('viewbox_missing', 'the root needs a viewBox of four numbers');
  else if (box[2]! <= 0 || box[3]! <= 0 || box[2] !== box[3]) {
    add('viewbox_not_square', `the viewBox is ${box[2]}×${box[3]}; BIMI logos must be square`);
  }

  const titleNode = children(root, rootName).find((c) => elementName(c)?.toLowerCase() === 'title');
  const title = titleNode ? decodeEntities(textOf(titleNode, elementName(titleNode)!)).trim() : '';
  if (title === '') add('title_missing', 'the <svg> needs a non-empty <title> child naming the brand');

  const walk = (node: XmlNode) => {
    const name = elementName(node);
    if (!name) return;
    const local = localName(name);
    if (local === 'script') add('script', 'the file contains a <script> element');
    if (ANIMATION.has(local)) add('animation', `animation element <${name}> is not allowed`);
    if (local === 'image') add('raster_image', 'embedded or linked images (<image>) are not allowed');
    if (DISALLOWED.has(local)) add('disallowed_element', `<${name}> is not allowed in SVG Tiny PS`);
    for (const [attr, value] of Object.entries(node[':@'] ?? {})) {
      if (/^on/i.test(attr)) add('script', `event handler attribute ${attr} on <${name}> is script`);
      if (isHrefAttr(attr) && isExternalHref(value))
        add('external_reference', `<${name}> ${attr} points outside the file (${value})`);
      for (const url of externalUrls(value)) add('external_reference', `<${name}> ${attr} references ${url}`);
    }
    if (local === 'style') {
      for (const url of externalUrls(textOf(node, name)))
        add('external_reference', `<style> references ${url}`);
    }
    children(node, name).forEach(walk);
  };
  walk(root);
  return { valid: issues.length === 0, issues, size_bytes: size, title: title === '' ? null : title };
}

function titleFromFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  return base
    .replace(/\.[^.]*$/, '')
    .replace(/[-_]+/g, ' ')
    .trim();
}

/**
 * Best-effort conversion to SVG Tiny PS: sets baseProfile/version/xmlns, removes root x/y, derives a square
 * viewBox, drops scripts, event handlers, animation, images, foreign content and external links, and adds a
 * title (from `title`, else the file name, else "Logo"). The result is checked again.
 */
export function convertToTinyPs(
  svg: string,
  options: { title?: string; fileName?: string } = {},
): BimiSvgConversion {
  const parsed = parseDocument(svg);
  const rootName = 'error' in parsed || !parsed.root ? null : elementName(parsed.root);
  if ('error' in parsed || !parsed.root || !rootName || localName(rootName) !== 'svg') {
    return { svg: null, changes: [], check: checkBimiSvg(svg) };
  }
  const { doc, root } = parsed;
  const changes: string[] = [];
  const attrs: Attrs = { ...(root[':@'] ?? {}) };

  if (attrs.xmlns !== SVG_NS) {
    attrs.xmlns = SVG_NS;
    changes.push('declared the SVG namespace');
  }
  if (attrs.baseProfile !== 'tiny-ps' || attrs.version !== '1.2') {
    attrs.baseProfile = 'tiny-ps';
    attrs.version = '1.2';
    changes.push('set baseProfile="tiny-ps" and version="1.2"');
  }
  for (const k of Object.keys(attrs)) {
    if (/^on/i.test(k)) {
      delete attrs[k];
      changes.push(`removed the ${k} handler from the root`);
    }
  }
  for (const xy of ['x', 'y']) {
    if (xy in attrs) {
      delete attrs[xy];
      changes.push(`removed ${xy} from the root`);
    }
  }
  let box = parseViewBox(attrs.viewBox);
  if (!box) {
    const w = parseFloat(attrs.width ?? '');
    const h = parseFloat(attrs.height ?? '');
    if (w > 0 && h > 0) {
      box = [0, 0, w, h];
      changes.push('added a viewBox from width and height');
    }
  }
  if (box && box[2]! > 0 && box[3]! > 0 && box[2] !== box[3]) {
    // Pad the shorter side so the drawing stays centred inside a square.
    const side = Math.max(box[2]!, box[3]!);
    box = [box[0]! - (side - box[2]!) / 2, box[1]! - (side - box[3]!) / 2, side, side];
    changes.push('padded the viewBox to a square');
    if ('width' in attrs || 'height' in attrs) {
      delete attrs.width;
      delete attrs.height;
      changes.push('removed width and height so the square viewBox decides the shape');
    }
  }
  if (box) attrs.viewBox = box.map((n) => String(Math.round(n * 1000) / 1000)).join(' ');

  const removed = new Map<string, number>();
  const note = (what: string) => removed.set(what, (removed.get(what) ?? 0) + 1);
  const clean = (list: XmlNode[]): XmlNode[] =>
    list.flatMap((node) => {
      const name = elementName(node);
      if (!name) return [node];
      const local = localName(name);
      if (local === 'script' || ANIMATION.has(local) || local === 'image' || DISALLOWED.has(local)) {
        note(`<${local}> element`);
        return [];
      }
      const a: Attrs = {};
      for (const [k, v] of Object.entries(node[':@'] ?? {})) {
        if (/^on/i.test(k)) note('event handler attribute');
        else if (isHrefAttr(k) && isExternalHref(v)) note('external link');
        else a[k] = v;
      }
      let kids = clean(children(node, name));
      if (local === 'style') {
        kids = kids.map((k) => {
          const text = k['#text'];
          if (typeof text !== 'string' || !/@import/i.test(text)) return k;
          note('@import rule');
          return { '#text': text.replace(IMPORT, '') };
        });
      }
      const out: XmlNode = { [name]: kids };
      if (Object.keys(a).length > 0) out[':@'] = a;
      return [out];
    });
  let body = clean(children(root, rootName));
  for (const [what, n] of removed) changes.push(`removed ${n} ${what}${n > 1 ? 's' : ''}`);

  const titleIndex = body.findIndex((c) => elementName(c)?.toLowerCase() === 'title');
  const existing =
    titleIndex >= 0 ? decodeEntities(textOf(body[titleIndex]!, elementName(body[titleIndex]!)!)).trim() : '';
  if (existing === '') {
    const title =
      options.title?.trim() || (options.fileName ? titleFromFileName(options.fileName) : '') || 'Logo';
    const node: XmlNode = { title: [{ '#text': escapeText(title) }] };
    body = titleIndex >= 0 ? body.map((c, i) => (i === titleIndex ? node : c)) : [node, ...body];
    changes.push(`added the title "${title}"`);
  }

  const newRoot: XmlNode = { [rootName]: body, ':@': attrs };
  const newDoc = doc.map((n) => (n === root ? newRoot : n));
  const out = new XMLBuilder({ ...OPTIONS, suppressEmptyNode: true, format: false }).build(newDoc) as string;
  return { svg: out, changes, check: checkBimiSvg(out) };
}

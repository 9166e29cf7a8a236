import { ReportParseError } from './reportParseError.ts';

/** An element as fast-xml-parser returns it with attributes ignored: child name → text, element or list. */
export type XmlElement = { readonly [name: string]: unknown };

const TEXT_NODE = '#text';

function isElement(value: unknown): value is XmlElement {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Typed, path-aware access to a parsed XML tree. Every "missing" or "wrong shape" becomes a
 * ReportParseError naming the element by its path, so a rejected report says exactly what was wrong.
 * Things that are odd but harmless (stray text between elements) are recorded as warnings instead.
 */
export class XmlElementReader {
  /** @param warnings where harmless oddities are recorded, shared with the caller's own warnings */
  constructor(readonly warnings: string[] = []) {}

  /** The single child element `name`, or undefined when absent; an empty element reads as `{}`. */
  element(parent: XmlElement, name: string, path: string): XmlElement | undefined {
    const value = this.single(parent, name, path);
    if (value === undefined) return undefined;
    return this.asElement(value, join(path, name));
  }

  /** Like element(), but absence is an error. */
  requiredElement(parent: XmlElement, name: string, path: string): XmlElement {
    const element = this.element(parent, name, path);
    if (element === undefined) {
      throw new ReportParseError('missing_field', `required element ${join(path, name)} is missing`);
    }
    return element;
  }

  /** Every child element `name` (zero or more), in document order. */
  elements(parent: XmlElement, name: string, path: string): XmlElement[] {
    const value = Object.hasOwn(parent, name) ? parent[name] : undefined;
    if (value === undefined) return [];
    const list = Array.isArray(value) ? value : [value];
    return list.map((item, i) => this.asElement(item, `${join(path, name)}[${i}]`));
  }

  /** Texts of every child `name` (zero or more), empty ones left out. */
  texts(parent: XmlElement, name: string, path: string): string[] {
    const value = Object.hasOwn(parent, name) ? parent[name] : undefined;
    if (value === undefined) return [];
    const list = Array.isArray(value) ? value : [value];
    return list
      .map((item: unknown, i) => {
        if (typeof item !== 'string') {
          throw new ReportParseError(
            'invalid_value',
            `${join(path, name)}[${i}] should hold text, not child elements`,
          );
        }
        return item;
      })
      .filter((item) => item !== '');
  }

  /** Trimmed text of child `name`; undefined when the element is absent or empty. */
  text(parent: XmlElement, name: string, path: string): string | undefined {
    const value = this.single(parent, name, path);
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') {
      throw new ReportParseError('invalid_value', `${join(path, name)} should hold text, not child elements`);
    }
    return value;
  }

  /** Like text(), but an absent or empty element is an error. */
  requiredText(parent: XmlElement, name: string, path: string): string {
    const value = this.text(parent, name, path);
    if (value === undefined) {
      throw new ReportParseError('missing_field', `required element ${join(path, name)} is missing or empty`);
    }
    return value;
  }

  /** Whether child `name` is present at all (even empty). */
  has(parent: XmlElement, name: string): boolean {
    return Object.hasOwn(parent, name);
  }

  private single(parent: XmlElement, name: string, path: string): unknown {
    if (!Object.hasOwn(parent, name)) return undefined;
    const value = parent[name];
    if (Array.isArray(value)) {
      throw new ReportParseError(
        'invalid_value',
        `${join(path, name)} appears ${value.length} times; the report format allows it once`,
      );
    }
    return value;
  }

  private asElement(value: unknown, path: string): XmlElement {
    if (value === '') return {};
    if (typeof value === 'string') {
      throw new ReportParseError(
        'invalid_value',
        `${path} should hold child elements, found text "${clip(value)}"`,
      );
    }
    if (!isElement(value)) {
      throw new ReportParseError('invalid_value', `${path} has an unexpected shape`);
    }
    const stray = value[TEXT_NODE];
    if (typeof stray === 'string' && stray !== '') {
      this.warnings.push(`stray text "${clip(stray)}" inside ${path} was ignored`);
    }
    return value;
  }
}

function join(path: string, name: string): string {
  return path === '' ? name : `${path}/${name}`;
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

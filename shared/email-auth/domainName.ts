/**
 * Syntax checks for DNS names and e-mail addresses as they appear inside records (ASCII / A-label form).
 */

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
// Service labels such as _spf, _dmarc or _mta-sts start with an underscore; they appear in SPF targets.
const SERVICE_LABEL = /^_?[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/i;

/** Options for isDomainName. */
export interface DomainNameOptions {
  /** Accept labels with underscores (needed for SPF include targets like `_spf.example.com`). */
  allowUnderscore?: boolean;
}

/**
 * True for a fully qualified name of at least two labels whose top label is not numeric,
 * each label 1–63 characters, the whole at most 253 characters; one trailing dot is tolerated.
 */
export function isDomainName(name: string, options: DomainNameOptions = {}): boolean {
  const n = name.endsWith('.') ? name.slice(0, -1) : name;
  if (n.length === 0 || n.length > 253) return false;
  const labels = n.split('.');
  if (labels.length < 2) return false;
  const pattern = options.allowUnderscore ? SERVICE_LABEL : LABEL;
  if (!labels.every((l) => pattern.test(l))) return false;
  const top = labels[labels.length - 1] ?? '';
  return /[a-z]/i.test(top) && !top.includes('_');
}

/**
 * Why `name` is not a domain name isDomainName accepts, in words ("has a space", "label 2 is longer than 63
 * characters"), or null when it is one.
 */
export function domainNameProblem(name: string, options: DomainNameOptions = {}): string | null {
  if (isDomainName(name, options)) return null;
  const n = name.endsWith('.') ? name.slice(0, -1) : name;
  if (n.trim() === '') return 'is empty';
  const odd = /[^a-z0-9._-]/i.exec(n);
  if (odd) return odd[0] === ' ' ? 'has a space' : `has the character "${odd[0]}"`;
  if (n.length > 253) return `is ${n.length} characters long; a name has at most 253`;
  const labels = n.split('.');
  if (labels.length < 2) return 'has a single label; a domain name has at least two (example.com)';
  const pattern = options.allowUnderscore ? SERVICE_LABEL : LABEL;
  for (const [i, label] of labels.entries()) {
    const which = `label ${i + 1}${label && label.length <= 63 ? ` "${label}"` : ''}`;
    if (label === '') return `${which} is empty (two dots in a row, or a leading dot)`;
    if (label.length > 63) return `${which} is longer than 63 characters`;
    if (!pattern.test(label))
      return /^-|-$/.test(label)
        ? `${which} starts or ends with a hyphen`
        : label.includes('_')
          ? `${which} has an underscore, which a host name cannot have`
          : `${which} has a character not allowed here`;
  }
  return 'its top-level label must contain a letter';
}

/** True for `local@domain` with a dot-atom or quoted-free local part and a valid domain. */
export function isEmailAddress(address: string): boolean {
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return false;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (local.length > 64) return false;
  if (!/^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/.test(local)) return false;
  return isDomainName(domain);
}

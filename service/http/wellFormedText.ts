/**
 * Request bodies must be valid Unicode. JSON lets a client escape half of a surrogate pair ("\ud800"), which
 * parses into a string no UTF-8 store or log can hold faithfully (SQLite would keep U+FFFD in its place), so
 * a lone surrogate anywhere in a body — value or key — is a 422 naming the field, as a schema violation is.
 */
import type { FieldProblem } from './serviceError.ts';

// With the `u` flag a paired surrogate is one code point outside \p{Cs}; only lone halves match.
const LONE_SURROGATE = /\p{Cs}/u;
/** Problems reported at most (a hostile body may hold thousands). */
const MAX_PROBLEMS = 20;

interface Visit {
  value: unknown;
  parent: Visit | null;
  /** `.key` or `[i]` under the parent. */
  step: string;
}

/** The field name of a visit, built only when reporting: building it for every node is quadratic in depth. */
function fieldOf(visit: Visit): string {
  const steps: string[] = [];
  for (let v: Visit | null = visit; v; v = v.parent) steps.push(v.step);
  return steps.reverse().join('');
}

/**
 * Control characters no stored text needs (C0 but tab, newline and carriage return; DEL; C1): in a name they
 * hide text or drive the terminal of whoever reads it later (NUL, ESC sequences).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Problems for the strings of `value` (a parsed JSON body): a lone surrogate, a control character. */
export function unicodeProblems(value: unknown, root = 'body'): FieldProblem[] {
  const problems: FieldProblem[] = [];
  // An explicit stack, not recursion: a 1 MB body can nest arrays 500,000 deep.
  const stack: Visit[] = [{ value, parent: null, step: root }];
  while (stack.length > 0 && problems.length < MAX_PROBLEMS) {
    const visit = stack.pop()!;
    const item = visit.value;
    if (typeof item === 'string') {
      if (LONE_SURROGATE.test(item))
        problems.push({ field: fieldOf(visit), message: 'must be valid Unicode (lone surrogate)' });
      const control = CONTROL_CHARACTER.exec(item)?.[0];
      if (control !== undefined)
        problems.push({
          field: fieldOf(visit),
          message: `must not contain control characters (U+${control.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})`,
        });
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--)
        stack.push({ value: item[i], parent: visit, step: `[${i}]` });
    } else if (item && typeof item === 'object') {
      for (const [key, child] of Object.entries(item).reverse()) {
        if (LONE_SURROGATE.test(key)) {
          problems.push({
            field: fieldOf(visit),
            message: 'must not have a key that is invalid Unicode (lone surrogate)',
          });
        } else stack.push({ value: child, parent: visit, step: `.${key}` });
      }
    }
  }
  return problems;
}

/**
 * The generic edit form's model (pure): fields drawn from an operation's request schema (generated from
 * openapi.yaml by `npm run gen:api`), the body built from what the user typed, the one validator's problems
 * mapped onto fields, the request preview, and which operations are destructive, owner-only or need a scope.
 */
import { REQUEST_FORMS } from '../../../shared/api/requestValidators.gen.ts';
import { checkRequestBody, type BodyCheck, type BodyProblem } from '../../../shared/api/requestBodies.ts';
import type { EditOperationName } from '../../../shared/bridge/editOperationNames.ts';
import { fieldsOf, isRecord } from './shape.ts';

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

interface FormInfo {
  scope: string | null;
  ownerOnly: boolean;
  required: boolean;
  schema: JsonSchema | null;
}

// The generated validators' module is plain JS (@ts-nocheck): its forms are openapi.yaml's JSON schemas.
const FORMS = REQUEST_FORMS as unknown as Record<EditOperationName, FormInfo>;

export type FieldKind = 'select' | 'checkbox' | 'integer' | 'text' | 'textarea' | 'lines' | 'integer-lines';

/** One input of a form. */
export interface FormField {
  name: string;
  kind: FieldKind;
  label: string;
  description: string;
  required: boolean;
  options: string[];
  nullable: boolean;
  min?: number;
  max?: number;
}

/** What the user has typed, by field name (checkbox: 'true' | 'false' | '' for "leave unchanged"). */
export type FormValues = Record<string, string>;

const LONG_TEXT = /svg|pem|policy_text|record/;

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  const branch = schema.oneOf ?? schema.anyOf;
  return branch ? branch.flatMap(typesOf) : [];
}

/** A field's label from its name: `role_id` → "Role", `domain_ids` → "Domains" (the form offers the names). */
export function fieldLabel(name: string): string {
  const text = name.replace(/_ids$/, 's').replace(/_id$/, '').replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A field's description as a user reads it: the contract's notes for its readers — where a value comes from
 * ("(GET /roles)", "from GET /auth/scopes") and what the contract inferred ("x-inferred") — are left out.
 */
export function fieldDescription(text: string): string {
  return text
    .replace(/\s*\([^()]*(?:x-inferred|\b(?:GET|POST|PUT|PATCH|DELETE) \/)[^()]*\)/g, '')
    .replace(/\s+from (?:GET|POST|PUT|PATCH|DELETE) \/\S+?(?=[.,;]|$)/g, '')
    .split(/(?<=\.)\s+/)
    .filter((sentence) => !/x-inferred/.test(sentence))
    .join(' ')
    .trim();
}

/** The properties of a schema, merging the shapes of a oneOf (first shape first). */
function propertiesOf(schema: JsonSchema): { properties: Record<string, JsonSchema>; required: Set<string> } {
  let shapes = schema.oneOf ?? schema.anyOf ?? [schema];
  // Shapes that each hold one field of the same schema are spellings of one field ({policy} | {p}): the form
  // shows the first.
  const single = shapes.map((shape) => Object.values(shape.properties ?? {}));
  if (
    shapes.length > 1 &&
    single.every((props) => props.length === 1 && JSON.stringify(props[0]) === JSON.stringify(single[0]![0]))
  )
    shapes = [shapes[0]!];
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  for (const shape of shapes) {
    for (const [name, prop] of Object.entries(shape.properties ?? {})) properties[name] ??= prop;
    // A field is required only when every shape requires it (alternatives are otherwise optional).
  }
  for (const name of Object.keys(properties)) {
    if (shapes.every((shape) => shape.required?.includes(name))) required.add(name);
  }
  return { properties, required };
}

/** The form's fields, from the request schema's properties. */
export function formFields(name: EditOperationName): FormField[] {
  const schema = FORMS[name]?.schema;
  if (!schema) return [];
  const { properties, required } = propertiesOf(schema);
  return Object.entries(properties).map(([field, prop]) => {
    const types = typesOf(prop);
    const options = (prop.enum ?? (prop.oneOf ?? []).flatMap((s) => s.enum ?? [])).map(String);
    let kind: FieldKind = 'text';
    if (options.length > 0) kind = 'select';
    else if (types.includes('boolean')) kind = 'checkbox';
    else if (types.includes('integer') || types.includes('number')) kind = 'integer';
    else if (types.includes('array')) {
      const itemTypes = prop.items ? typesOf(prop.items) : [];
      kind = itemTypes.includes('integer') ? 'integer-lines' : 'lines';
    } else if (LONG_TEXT.test(field) || (prop.maxLength ?? 0) > 1024) kind = 'textarea';
    return {
      name: field,
      kind,
      label: fieldLabel(field),
      description: fieldDescription(prop.description ?? ''),
      required: required.has(field),
      options,
      nullable: types.includes('null'),
      ...(prop.minimum !== undefined ? { min: prop.minimum } : {}),
      ...(prop.maximum !== undefined ? { max: prop.maximum } : {}),
    };
  });
}

/** Whether the operation sends a body at all, and whether the document requires one. */
export function bodyShape(name: EditOperationName): { takesBody: boolean; required: boolean } {
  const form = FORMS[name];
  return { takesBody: !!form?.schema, required: form?.required ?? false };
}

/**
 * The body built from the form: empty fields are left out (the service keeps its value or default), numbers
 * and lists parsed; a text that does not read as a number is sent as typed so the validator names it.
 * Returns undefined when the operation takes no body, or when nothing was filled and the body is optional.
 */
export function buildBody(name: EditOperationName, values: FormValues): unknown {
  const { takesBody, required } = bodyShape(name);
  if (!takesBody) return undefined;
  const body: Record<string, unknown> = {};
  for (const field of formFields(name)) {
    const raw = (values[field.name] ?? '').trim();
    if (raw === '') continue;
    if (field.nullable && raw === 'null') {
      body[field.name] = null;
      continue;
    }
    switch (field.kind) {
      case 'checkbox':
        body[field.name] = raw === 'true';
        break;
      case 'integer':
        body[field.name] = /^-?\d+$/.test(raw) ? Number(raw) : raw;
        break;
      case 'lines':
        body[field.name] = raw
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line !== '');
        break;
      case 'integer-lines':
        body[field.name] = raw
          .split(/[\n,]/)
          .map((line) => line.trim())
          .filter((line) => line !== '')
          .map((line) => (/^\d+$/.test(line) ? Number(line) : line));
        break;
      default:
        // Multi-line values (policy text, PEM, SVG) keep their line breaks; others are single-line.
        body[field.name] = field.kind === 'textarea' ? (values[field.name] ?? '') : raw;
    }
  }
  if (Object.keys(body).length === 0 && !required) return undefined;
  return body;
}

/** Problems by form field: `body.mx[1]` → `mx`, `body` → `` (the form as a whole). */
export function problemsByField(problems: readonly BodyProblem[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const problem of problems) {
    const match = /^body\.?([a-z_]*)(\[(\d+)\])?/i.exec(problem.field);
    const field = match?.[1] ?? '';
    const where = match?.[3] !== undefined ? `line ${Number(match[3]) + 1}: ` : '';
    (out[field] ??= []).push(where + problem.message);
  }
  return out;
}

/** The one validator (record syntax with shared/email-auth, then the document's schema) on the form's body. */
export function checkForm<O extends EditOperationName>(name: O, values: FormValues): BodyCheck<O> {
  return checkRequestBody(name, buildBody(name, values));
}

/** A 422's details ([{field, message}]) from a bridge error, when it carries them. */
export function detailsOf(error: unknown): BodyProblem[] {
  const raw = fieldsOf(error).details;
  const inner = fieldsOf(raw).details;
  const list: unknown[] = Array.isArray(raw) ? raw : Array.isArray(inner) ? inner : [];
  return list
    .filter(isRecord)
    .map((d) => ({
      field: String(d.field ?? d.path ?? 'body'),
      message: String(d.message ?? 'is invalid'),
    }))
    .map((d) => (d.field.startsWith('body') ? d : { ...d, field: `body.${d.field}` }));
}

/** The path with its ids filled in, as it will be requested. */
export function fillPath(template: string, ids: Record<string, number | undefined>): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, key: string) =>
    ids[key] !== undefined ? String(ids[key]) : whole,
  );
}

/** Path parameters other than domain_id the user must pick (include_id, group_id, user_id, …). */
export function extraIds(template: string): string[] {
  return [...template.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!).filter((id) => id !== 'domain_id');
}

/** Deletes, resets and disables: the form asks for a deliberate second step naming the domain. */
export function isDestructive(name: EditOperationName, method: string, body: unknown): boolean {
  if (method === 'DELETE' || name === 'resetMtaSts') return true;
  const b = fieldsOf(body);
  if (name === 'setUserStatus' && b.enabled === false) return true;
  if (name === 'setMtaStsMode' && b.mode === 'none') return true;
  if (name === 'updateHostedSpf' && b.all === '+all') return true;
  return false;
}

/** Who may make the operation: the scope it needs and whether only the team owner may. */
export function permissionOf(name: EditOperationName): { scope: string | null; ownerOnly: boolean } {
  const form = FORMS[name];
  return { scope: form?.scope ?? null, ownerOnly: form?.ownerOnly ?? false };
}

/** Why the form is disabled for this caller, or null when it may send. */
export function blockedReason(
  name: EditOperationName,
  caller: { isOwner: boolean | null; scopes: readonly string[] | null },
): string | null {
  const { scope, ownerOnly } = permissionOf(name);
  if (ownerOnly && caller.isOwner === false) return 'Only the team owner can make this change.';
  if (scope && caller.scopes && !caller.scopes.includes(scope))
    return `The account's API token lacks the ${scope} scope.`;
  return null;
}

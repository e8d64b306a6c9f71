/**
 * Redaction by value. The pattern rules of `redact()` (redact.ts) catch
 * `?api_key=…` and `Basic …`, but a site may echo a key anywhere: in a
 * message, in `data.params`, in details. This plugin knows the request's
 * secrets by value and removes every occurrence from every error the gateway
 * sends or logs (docs/graph.md "Auth"):
 *
 * - the configured service credential (`SITEGRAPH_SERVICE_AUTH`);
 * - the caller's `Authorization` (the header, its Basic token, the password);
 * - `X-Governance-Api-Key` and `X-Automation-Token`;
 * - secret arguments (`apiKey`, `accessToken`, `consumerSecret`, `password`,
 *   `secret`, `token`, at any depth of an input), with variables resolved.
 *
 * Errors are scrubbed in `didEncounterErrors`, before `formatError` formats
 * (and, for internal errors, logs) them, and the formatted errors are scrubbed
 * again in `willSendResponse`, whatever produced them.
 */
import type { ApolloServerPlugin, GraphQLRequestContext } from '@apollo/server';
import { getNamedType, getNullableType, isInputObjectType, isListType, type GraphQLInputType } from 'graphql';
import { forEachField, perOperation, resolveOperation } from '../limits.ts';
import {
  SECRET_ARGUMENTS as SECRET_ARGUMENT_NAMES,
  SECRET_HEADERS as SECRET_HEADER_NAMES,
} from '../namespaces/catalog.ts';
import { REDACTED, redactValues, secretForms } from '../redact.ts';

/**
 * Headers whose values are secrets (lower-case): those the namespaces' descriptors declare (src/namespaces/catalog.ts).
 */
export const SECRET_HEADERS: readonly string[] = SECRET_HEADER_NAMES;
/**
 * Argument and input-field names whose values are secrets: those the
 * namespaces' descriptors declare (`apiKey`, `accessToken`, `consumerSecret`),
 * and the names any field gives one.
 */
export const SECRET_ARGUMENTS = new RegExp(
  `^(${[...SECRET_ARGUMENT_NAMES, 'password', 'secret', 'token'].join('|')})$`,
);

/** `user:password` -> the forms it travels in: the pair, the password, the Basic token. */
export function credentialSecrets(userPass: string): string[] {
  const colon = userPass.indexOf(':');
  const out = [userPass, Buffer.from(userPass, 'utf8').toString('base64')];
  if (colon >= 0) out.push(userPass.slice(colon + 1));
  return out;
}

/**
 * Secrets in an Authorization header value: the whole value, its token, and for Basic the decoded pair and password.
 */
export function authorizationSecrets(value: string | undefined): string[] {
  if (!value) return [];
  const out = [value];
  const m = /^\s*(\w+)\s+(\S+)\s*$/.exec(value);
  if (!m) return out;
  // Both groups always take part in a match: the defaults only satisfy the type of a RegExp result.
  const [, scheme = '', token = ''] = m;
  out.push(token);
  if (scheme.toLowerCase() === 'basic') {
    const decoded = Buffer.from(token, 'base64').toString('utf8');
    if (decoded.includes(':')) out.push(...credentialSecrets(decoded));
  }
  return out;
}

/** A JSON-like value with every secret occurrence in its strings (and keys) replaced. */
export function scrubValue(v: unknown, forms: readonly string[], depth = 0): unknown {
  if (typeof v === 'string') return redactValues(v, forms);
  if (depth > 32 || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => scrubValue(x, forms, depth + 1));
  // Only plain JSON objects are rebuilt: Apollo's `extensions.http` (a HeaderMap) and other
  // class instances are not error text and must keep their identity.
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[redactValues(k, forms)] = scrubValue(x, forms, depth + 1);
  return out;
}

/** Scrubs an error and its causes in place: message, stack, extensions. */
function scrubError(e: unknown, forms: readonly string[], depth = 0): void {
  if (!e || typeof e !== 'object' || depth > 6) return;
  const err = e as {
    message?: unknown;
    stack?: unknown;
    extensions?: unknown;
    originalError?: unknown;
    cause?: unknown;
  };
  try {
    if (typeof err.message === 'string') err.message = redactValues(err.message, forms);
    if (typeof err.stack === 'string') err.stack = redactValues(err.stack, forms);
    if (err.extensions && typeof err.extensions === 'object') {
      const ext = err.extensions as Record<string, unknown>;
      for (const k of Object.keys(ext)) ext[k] = scrubValue(ext[k], forms);
    }
  } catch {
    // A frozen error cannot be scrubbed in place; willSendResponse still scrubs what is sent.
  }
  if (err.originalError !== e) scrubError(err.originalError, forms, depth + 1);
  if (err.cause !== e) scrubError(err.cause, forms, depth + 1);
}

/** Secret argument values of the operation (variables resolved), at any depth of an input. */
function argumentSecrets(rc: GraphQLRequestContext<object>, into: Set<string>): void {
  if (!rc.operation || !rc.document) return;
  for (const s of typedArgumentSecrets(rc.schema, rc.document, rc.operation, rc.request.variables)) into.add(s);
  // Variables that did not coerce (or were never used) may still hold a secret the site can echo.
  const raw = (v: unknown, name: string, depth: number): void => {
    if (depth > 16 || v === null || v === undefined) return;
    if (typeof v === 'string') {
      if (SECRET_ARGUMENTS.test(name)) into.add(v);
    } else if (Array.isArray(v)) v.forEach((x) => raw(x, name, depth + 1));
    else if (typeof v === 'object') for (const [k, x] of Object.entries(v)) raw(x, k, depth + 1);
  };
  raw(rc.request.variables ?? {}, '', 0);
}

/**
 * The values of the operation's secret arguments (tokens, keys, passwords), by
 * their schema types. Kept per operation only when it has no variables (its
 * secrets, if any, are literals of a document Apollo keeps anyway; perOperation).
 */
const typedArgumentSecrets = perOperation((schema, document, operation, variables): readonly string[] => {
  const into = new Set<string>();
  const resolved = resolveOperation(schema, document, operation, variables);
  const collect = (value: unknown, type: GraphQLInputType, name: string): void => {
    if (value === null || value === undefined) return;
    const t = getNullableType(type);
    if (isListType(t)) {
      for (const x of Array.isArray(value) ? value : [value]) collect(x, t.ofType, name);
    } else if (isInputObjectType(t)) {
      if (typeof value === 'object')
        for (const f of Object.values(t.getFields()))
          collect((value as Record<string, unknown>)[f.name], f.type, f.name);
    } else if (typeof value === 'string' && SECRET_ARGUMENTS.test(name) && getNamedType(t).name !== 'Boolean') {
      into.add(value);
    }
  };
  if (resolved) {
    forEachField(resolved, (_field, def, args, _parent, descend) => {
      for (const a of def.args) collect(args[a.name], a.type, a.name);
      descend(_field.selectionSet);
    });
  }
  return [...into];
});

export interface RedactionOptions {
  /** `SITEGRAPH_SERVICE_AUTH` (`user:application-password`), when configured. */
  serviceAuth?: string | undefined;
  /** Other configured secrets, removed wherever they appear. */
  secrets?: readonly string[];
}

/**
 * The secret forms of a request in progress, by its GraphQLRequest: the logger
 * (src/log.ts) removes them from every line logged while it is handled.
 * Arguments are included once the operation is resolved.
 */
const requestForms = new WeakMap<object, () => readonly string[]>();
export function requestSecretForms(request: object): readonly string[] {
  return requestForms.get(request)?.() ?? [];
}

export function redactionPlugin<C extends object>(opts: RedactionOptions = {}): ApolloServerPlugin<C> {
  const configured = [...(opts.serviceAuth ? credentialSecrets(opts.serviceAuth) : []), ...(opts.secrets ?? [])];
  return {
    async requestDidStart(start) {
      const secrets = new Set<string>(configured);
      const headers = start.request.http?.headers;
      for (const s of authorizationSecrets(headers?.get('authorization'))) secrets.add(s);
      for (const h of SECRET_HEADERS) {
        const v = headers?.get(h);
        if (v) secrets.add(v.trim());
      }
      let forms: string[] | null = null;
      let argumentsRead = false;
      const formsOf = (rc: GraphQLRequestContext<C>): string[] => {
        if (!argumentsRead && rc.operation) {
          argumentsRead = true;
          forms = null;
          try {
            argumentSecrets(rc as GraphQLRequestContext<object>, secrets);
          } catch {
            // Collecting is best effort; the header and configured secrets are already known.
          }
        }
        forms ??= secretForms(secrets);
        return forms;
      };
      requestForms.set(start.request, () => (forms ??= secretForms(secrets)));
      return {
        async didResolveOperation(rc) {
          formsOf(rc);
        },
        async didEncounterErrors(rc) {
          const f = formsOf(rc);
          for (const e of rc.errors) scrubError(e, f);
        },
        async willSendResponse(rc) {
          const f = formsOf(rc);
          const body = rc.response.body;
          const result = body.kind === 'single' ? body.singleResult : body.initialResult;
          if (result.errors) (result as { errors?: unknown }).errors = scrubValue(result.errors, f);
        },
      };
    },
  };
}

export { REDACTED };

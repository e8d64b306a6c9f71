/**
 * How deep a client's input may nest, checked on its text before anything
 * walks it. JSON.parse takes any nesting (V8's parser does not recurse), but
 * most code that walks a value does: JSON.stringify (the response cache's
 * key), graphql-js's parser (a list literal 2,500 deep, well inside the token
 * cap, overflows the stack), coercion, redaction, logging. So a request body,
 * its `variables` and `extensions` (POST, or GET's query string), a WebSocket
 * message, and a GraphQL document are each scanned once, without a stack and
 * stopping at the limit, and refused past it (`BAD_REQUEST`, naming the limit).
 * What is left is bounded for every walker after it.
 */

/** Arrays and objects in JSON, or `{`, `[` and `(` in a GraphQL document, inside one another. */
export const MAX_NESTING = 64;

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_PAREN = 0x28;
const CLOSE_PAREN = 0x29;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const HASH = 0x23;
const NEWLINE = 0x0a;
const RETURN = 0x0d;

/** True when JSON text nests arrays and objects deeper than `max` (strings skipped; the text need not be valid). */
export function jsonTooDeep(text: string, max = MAX_NESTING): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/**
 * True when a GraphQL document nests `{`, `[` and `(` deeper than `max` (strings, block strings and comments skipped).
 */
export function documentTooDeep(text: string, max = MAX_NESTING): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === HASH) {
      while (i < text.length && text.charCodeAt(i) !== NEWLINE && text.charCodeAt(i) !== RETURN) i++;
    } else if (c === QUOTE) {
      if (text.startsWith('"""', i)) {
        // A block string: up to the next unescaped """.
        for (i += 3; i < text.length; i++) {
          if (text.startsWith('\\"""', i)) i += 3;
          else if (text.startsWith('"""', i)) {
            i += 2;
            break;
          }
        }
      } else {
        for (i++; i < text.length; i++) {
          const s = text.charCodeAt(i);
          if (s === BACKSLASH) i++;
          else if (s === QUOTE || s === NEWLINE) break;
        }
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET || c === OPEN_PAREN) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET || c === CLOSE_PAREN) {
      depth--;
    }
  }
  return false;
}

/** The error for input nested past the limit: `what` says which input. */
export function nestingError(
  what: string,
  max = MAX_NESTING,
): { message: string; extensions: Record<string, unknown> } {
  return {
    message: `${what} nests deeper than ${max} levels, the gateway's nesting limit; flatten it.`,
    extensions: { code: 'BAD_REQUEST', limit: 'MAX_NESTING', max },
  };
}

/** The same as an HTTP answer. */
export function nestingRefusal(
  what: string,
  max = MAX_NESTING,
): { status: 400; body: { errors: ReturnType<typeof nestingError>[] } } {
  return { status: 400, body: { errors: [nestingError(what, max)] } };
}

/**
 * A GraphQL-over-HTTP request's JSON and document, POST (its body's text and
 * the parsed body) or GET (its query string): the first part nested too deep,
 * refused, or null.
 */
export function requestNesting(
  text: string | null,
  body: unknown,
  search: string,
  max = MAX_NESTING,
): ReturnType<typeof nestingRefusal> | null {
  if (text !== null && jsonTooDeep(text, max)) return nestingRefusal('The request body', max);
  let query: unknown;
  if (text === null) {
    const params = new URLSearchParams(search);
    for (const name of ['variables', 'extensions']) {
      const v = params.get(name);
      if (v !== null && jsonTooDeep(v, max)) return nestingRefusal(`The "${name}" parameter`, max);
    }
    query = params.get('query');
  } else if (typeof body === 'object' && body !== null) {
    query = (body as { query?: unknown }).query;
  }
  if (typeof query === 'string' && documentTooDeep(query, max)) return nestingRefusal('The GraphQL document', max);
  return null;
}

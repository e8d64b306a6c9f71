/**
 * The pipeline's parse and validate stages: a document's text, scanned for nesting (nesting.ts), parsed with the
 * token cap, and validated with GraphQL's rules and the gateway's (limits.ts `gatewayRules`). Every transport
 * calls this, Apollo included (pipeline/apollo.ts hands it the document, so it never parses one itself); a
 * refusal is shaped as Apollo shapes its own (GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED, HTTP 400), so the
 * caller reads the same error on every transport.
 *
 * Documents that passed are kept by their text (least recently used out first), as Apollo's document store kept
 * them: a text seen before is neither parsed nor validated again, and brings back the same operation nodes, which
 * the per-operation memos (limits.ts `perOperation`, redaction) key on.
 */
import {
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { documentTooDeep, nestingError } from '../nesting.ts';

/** The answer's status for a refused document: Apollo's `extensions.http`, taken out before the error is sent. */
const BAD_REQUEST = { status: 400 };

/** Text kept in all (the parsed documents weigh some tens of times their text). */
const KEEP_CHARS = 1024 * 1024;
/** A longer document is checked each time rather than crowd the others out. */
const KEEP_ONE_CHARS = 64 * 1024;

export type DocumentStage = 'parse' | 'validate';

export type CheckedDocument =
  | { document: DocumentNode }
  | {
      stage: DocumentStage;
      errors: GraphQLError[];
      /** The parsed document when it was validation that refused it (logs name its operation). */
      document?: DocumentNode;
    };

export interface DocumentOptions {
  schema: GraphQLSchema;
  maxTokens: number;
  /** The gateway's own rules, run after GraphQL's. */
  rules: readonly ValidationRule[];
  /** GraphQL's rules as the graph has them (default graphql-js's `specifiedRules`). */
  baseRules?: readonly ValidationRule[];
  /** Codes a rule of the graph sets that its errors keep (any other validation error is GRAPHQL_VALIDATION_FAILED). */
  ruleCodes?: readonly string[];
}

export function documentStages(options: DocumentOptions) {
  const rules = [...(options.baseRules ?? specifiedRules), ...options.rules];
  const kept = new Map<string, DocumentNode>();
  let keptChars = 0;
  let parses = 0;

  function parseStage(source: string): { document: DocumentNode } | { errors: GraphQLError[] } {
    // A WebSocket message's document was not scanned with a body; scanned here, before the parser can recurse on it.
    if (documentTooDeep(source)) {
      const e = nestingError('The GraphQL document');
      return { errors: [new GraphQLError(e.message, { extensions: { ...e.extensions, http: BAD_REQUEST } })] };
    }
    parses += 1;
    try {
      return { document: parse(source, { maxTokens: options.maxTokens }) };
    } catch (err) {
      const e = err instanceof GraphQLError ? err : new GraphQLError(String((err as Error)?.message ?? err));
      return {
        errors: [
          new GraphQLError(e.message, {
            source: e.source,
            positions: e.positions,
            extensions: { http: BAD_REQUEST, ...e.extensions, code: 'GRAPHQL_PARSE_FAILED' },
            originalError: e,
          }),
        ],
      };
    }
  }

  function validateStage(document: DocumentNode): GraphQLError[] {
    return validate(options.schema, document, rules).map((e) => {
      const own = e.extensions.code;
      const code = typeof own === 'string' && options.ruleCodes?.includes(own) ? own : 'GRAPHQL_VALIDATION_FAILED';
      return new GraphQLError(e.message, {
        nodes: e.nodes,
        extensions: { http: BAD_REQUEST, ...e.extensions, code },
        originalError: e.originalError ?? e,
      });
    });
  }

  function keep(source: string, document: DocumentNode): void {
    if (source.length > KEEP_ONE_CHARS) return;
    kept.set(source, document);
    keptChars += source.length;
    for (const [text] of kept) {
      if (keptChars <= KEEP_CHARS) break;
      kept.delete(text);
      keptChars -= text.length;
    }
  }

  return {
    /** Parse, then validate: the document, or the stage that refused it and why. */
    check(source: string): CheckedDocument {
      const known = kept.get(source);
      if (known) {
        // Most recently used last.
        kept.delete(source);
        kept.set(source, known);
        return { document: known };
      }
      const parsed = parseStage(source);
      if ('errors' in parsed) return { stage: 'parse', errors: parsed.errors };
      const invalid = validateStage(parsed.document);
      if (invalid.length) return { stage: 'validate', errors: invalid, document: parsed.document };
      keep(source, parsed.document);
      return parsed;
    },
    /** How many documents were parsed so far (tests: each text once). */
    parses: () => parses,
  };
}

export type DocumentStages = ReturnType<typeof documentStages>;

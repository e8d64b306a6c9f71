/**
 * The operation's span, and the current field for resolver spans (src/telemetry.ts), for both graphs: the main
 * graph's through Apollo's hooks (`tracingPlugin`, installed by pipeline/apollo.ts), the compatible graph's, which
 * graphql-js runs without Apollo, through its handler (`startOperation`) and its resolvers wrapped once
 * (`traceResolvers`). Nothing here is made when tracing is off.
 *
 * The operation span is a SERVER span named `<type> <name>` (`query Events`;
 * `query` for an anonymous one, `GraphQL Operation` for a document that did not
 * parse or validate), the child of the caller's `traceparent` when it sent one.
 *
 * Fields: only fields with a resolver of their own are made current (looked up
 * once, before Apollo wraps the schema), so the thousands of plain property
 * reads of a big answer cost nothing more than graphql-js's own call. Making it
 * current is `AsyncLocalStorage#enterWith`: Apollo's hook runs right before the
 * resolver, in the same synchronous call, and cannot wrap it in `run`; the next
 * field sets its own before its resolver runs, so the store a request sees is
 * the field that sent it. The compatible graph's wrapper does the same, so both
 * graphs' fields are scoped alike.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { addResolversToSchema } from '@graphql-tools/schema';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context as TraceContext,
  type TextMapGetter,
} from '@opentelemetry/api';
import {
  isObjectType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationTypeNode,
} from 'graphql';
import { errorCode, fieldScope, headerMapGetter, type Tracing } from '../telemetry.ts';

/** The spec's span name when the operation is not known. */
const UNKNOWN_OPERATION = 'GraphQL Operation';

/** One operation's SERVER span, from its arrival to its answer. */
export interface OperationTrace {
  /** The span's context: the parent of its fields' spans. */
  readonly context: TraceContext;
  /** Names the span once the document is valid and its operation chosen. */
  resolved(type: OperationTypeNode, name: string | null | undefined): void;
  /** The errors answered: their codes, never their messages (they may carry what the caller sent, redaction.ts). */
  failed(errors: readonly unknown[]): void;
  end(): void;
}

/** Starts an operation's span, under the caller's `traceparent` in `headers` when there is one. */
export function startOperation<H>(tracing: Tracing, headers: H | undefined, getter: TextMapGetter<H>): OperationTrace {
  const incoming = headers ? tracing.propagator.extract(ROOT_CONTEXT, headers, getter) : ROOT_CONTEXT;
  const span = tracing.tracer.startSpan(UNKNOWN_OPERATION, { kind: SpanKind.SERVER }, incoming);
  return {
    context: trace.setSpan(incoming, span),
    resolved(type, name) {
      span.updateName(name ? `${type} ${name}` : type);
      span.setAttribute('graphql.operation.type', type);
      if (name) span.setAttribute('graphql.operation.name', name);
    },
    failed(errors) {
      const codes = [...new Set(errors.map(errorCode))].sort();
      span.setAttribute('sitegraph.graphql.error_codes', codes);
      span.setStatus({ code: SpanStatusCode.ERROR, message: codes.join(',') });
    },
    end: () => span.end(),
  };
}

/**
 * Makes a field current, right before its resolver runs, so that the upstream attempts it starts hang under its
 * span (made on the first of them); returns what ends it, once its result is settled.
 */
export function enterField(
  tracing: Tracing,
  operation: TraceContext,
  info: GraphQLResolveInfo,
): (error: unknown) => void {
  const scope = fieldScope(operation, info);
  tracing.fields.enterWith(scope);
  return (error) => tracing.endField(scope, error);
}

/** Each object field with a resolver of its own (the others only read a property of what is loaded). */
function* ownResolvers(schema: GraphQLSchema) {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields()))
      if (field.resolve) yield { type: type.name, field, resolve: field.resolve };
  }
}

export function tracingPlugin<C extends object>(tracing: Tracing, schema: GraphQLSchema): ApolloServerPlugin<C> {
  // Before Apollo wraps every field's resolver (on its first request).
  const resolved = new WeakSet<GraphQLField<unknown, unknown>>();
  for (const { field } of ownResolvers(schema)) resolved.add(field);

  return {
    async requestDidStart({ request }) {
      const operation = startOperation(tracing, request.http?.headers, headerMapGetter);
      return {
        async didResolveOperation({ operation: op, operationName }) {
          if (op) operation.resolved(op.operation, operationName);
        },
        async executionDidStart() {
          return {
            willResolveField({ info }) {
              const field = info.parentType.getFields()[info.fieldName];
              if (field && resolved.has(field)) return enterField(tracing, operation.context, info);
            },
          };
        },
        async didEncounterErrors({ errors }) {
          operation.failed(errors);
        },
        async willSendResponse() {
          operation.end();
        },
      };
    },
  };
}

/**
 * For graphql-js's `execute`, which has no per-field hook: a copy of `schema` whose own resolvers make their field
 * current, under the span of the operation `operationOf` finds for the context value (none: the resolver runs
 * untraced). Made once, and only when tracing is on: the schema as it is costs nothing per field.
 */
export function traceResolvers<C>(
  schema: GraphQLSchema,
  tracing: Tracing,
  operationOf: (context: C) => TraceContext | undefined,
): GraphQLSchema {
  const resolvers: Record<string, Record<string, GraphQLFieldResolver<unknown, C>>> = {};
  for (const { type, field, resolve } of ownResolvers(schema)) {
    (resolvers[type] ??= {})[field.name] = (source, args, context, info) => {
      const operation = operationOf(context);
      if (!operation) return resolve(source, args, context, info);
      const end = enterField(tracing, operation, info);
      let result: unknown;
      try {
        result = resolve(source, args, context, info);
      } catch (err) {
        end(err);
        throw err;
      }
      whenSettled(result, end);
      return result;
    };
  }
  return addResolversToSchema({ schema, resolvers });
}

const isPromise = (x: unknown): x is PromiseLike<unknown> =>
  typeof x === 'object' && x !== null && typeof (x as { then?: unknown }).then === 'function';

/** Calls `end` when a resolver's result is settled, as Apollo's hook does: a promise, or a list holding promises. */
function whenSettled(result: unknown, end: (error: unknown) => void): void {
  if (isPromise(result)) result.then((r) => whenSettled(r, end), end);
  else if (Array.isArray(result) && result.some(isPromise)) Promise.all(result).then(() => end(null), end);
  else end(null);
}

/**
 * The operation's span, and the current field for resolver spans (src/telemetry.ts).
 * Installed only when tracing is on (pipeline/apollo.ts).
 *
 * The operation span is a SERVER span named `<type> <name>` (`query Events`;
 * `query` for an anonymous one, `GraphQL Operation` for a document that did not
 * parse or validate), the child of the caller's `traceparent` when it sent one.
 *
 * Fields: `willResolveField` makes the field current only for fields with a
 * resolver of their own (looked up once, before Apollo wraps the schema), so
 * the thousands of plain property reads of a big answer cost nothing more than
 * Apollo's own call. Making it current is `AsyncLocalStorage#enterWith`: the
 * hook runs right before the resolver, in the same synchronous call, and
 * cannot wrap it in `run`; the next field sets its own before its resolver
 * runs, so the store a request sees is the field that sent it.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { isObjectType, type GraphQLField, type GraphQLSchema } from 'graphql';
import { errorCode, fieldScope, headerMapGetter, type Tracing } from '../telemetry.ts';

/** The spec's span name when the operation is not known. */
const UNKNOWN_OPERATION = 'GraphQL Operation';

export function tracingPlugin<C extends object>(tracing: Tracing, schema: GraphQLSchema): ApolloServerPlugin<C> {
  // Before Apollo wraps every field's resolver (on its first request): fields with a resolver of their own.
  const resolved = new WeakSet<GraphQLField<unknown, unknown>>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) if (field.resolve) resolved.add(field);
  }
  const { tracer, fields } = tracing;

  return {
    async requestDidStart({ request }) {
      const incoming = request.http
        ? tracing.propagator.extract(ROOT_CONTEXT, request.http.headers, headerMapGetter)
        : ROOT_CONTEXT;
      const span = tracer.startSpan(UNKNOWN_OPERATION, { kind: SpanKind.SERVER }, incoming);
      const parent = trace.setSpan(incoming, span);
      return {
        async didResolveOperation({ operation, operationName }) {
          if (!operation) return;
          const type = operation.operation;
          span.updateName(operationName ? `${type} ${operationName}` : type);
          span.setAttribute('graphql.operation.type', type);
          if (operationName) span.setAttribute('graphql.operation.name', operationName);
        },
        async executionDidStart() {
          return {
            willResolveField({ info }) {
              const field = info.parentType.getFields()[info.fieldName];
              if (!field || !resolved.has(field)) return;
              const scope = fieldScope(parent, info);
              fields.enterWith(scope);
              return (error) => tracing.endField(scope, error);
            },
          };
        },
        async didEncounterErrors({ errors }) {
          // Codes only: messages may carry what the caller sent (redaction.ts).
          const codes = [...new Set(errors.map(errorCode))].sort();
          span.setAttribute('sitegraph.graphql.error_codes', codes);
          span.setStatus({ code: SpanStatusCode.ERROR, message: codes.join(',') });
        },
        async willSendResponse() {
          span.end();
        },
      };
    },
  };
}

/**
 * /graphql's operations through Apollo Server 5, on the pipeline's stages (index.ts). Apollo keeps what is its own:
 * the GraphQL-over-HTTP request (GET and POST, batches, CSRF prevention, content negotiation), APQ, execution, the
 * plugins' hooks and the answer's shape. The stages it would otherwise run itself are the pipeline's, called from
 * its hooks by `pipelinePlugin`:
 *
 * - parse and validate, in `didResolveSource`: the document checked by the pipeline is set on the request, and
 *   Apollo, which parses only when a request has no document yet (and has no document store here), parses and
 *   validates nothing. A refused document is set as one with no operation, so nothing resolves an operation or
 *   checks GET against it, and its errors are thrown from `didResolveOperation`, which Apollo answers as it
 *   answered its own refusals (`didEncounterErrors`, `formatError`, HTTP 400, `willSendResponse`);
 * - limits, in `didResolveOperation`: the document and the variables are known, nothing has been sent upstream.
 *
 * The plugin comes first, so that every other plugin's hook sees what it set (the errors of a refused document,
 * and then the document itself for the log line's operation name).
 */
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { Kind, type DocumentNode, type GraphQLError, type GraphQLSchema } from 'graphql';
import type { Server } from 'node:http';
import type { StringKeyValueCache } from '../cache/apq.ts';
import { cacheControlPlugin } from '../cache/response.ts';
import type { Config } from '../config.ts';
import type { Context } from '../context.ts';
import type { Logger } from '../log.ts';
import type { Observer } from '../plugins/observability.ts';
import { redactionPlugin } from '../plugins/redaction.ts';
import { tracingPlugin } from '../plugins/tracing.ts';
import type { Tracing } from '../telemetry.ts';
import type { Pipeline } from './index.ts';
import { formatError, formatErrors } from './respond.ts';

/** What a refused document is set as: Apollo resolves no operation in it, and parses nothing. */
const REFUSED: DocumentNode = { kind: Kind.DOCUMENT, definitions: [] };

/** The pipeline's parse, validate and limits stages as Apollo's hooks. */
export function pipelinePlugin(pipeline: Pipeline): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      let refused: { errors: GraphQLError[]; document: DocumentNode | undefined } | null = null;
      return {
        async didResolveSource(rc) {
          const checked = pipeline.document('http', rc.source);
          if ('stage' in checked) refused = { errors: checked.errors, document: checked.document };
          // Apollo's own field, readonly to plugins: set, Apollo takes it as parsed and validated.
          Object.assign(rc, { document: refused ? REFUSED : checked.document });
        },
        async didResolveOperation(rc) {
          // (A refused document has one error at least.)
          const [first] = refused?.errors ?? [];
          if (first) throw first;
          const op = rc.operation;
          if (!op) return;
          const error = pipeline.limits('http', rc.document, op, rc.request.variables, rc.contextValue.upstream.budget);
          if (error) {
            rc.response.http.status = 400;
            throw error;
          }
        },
        async didEncounterErrors(rc) {
          // Apollo answers a hook's refusal with one error: the others' hooks, called after this one, see them all.
          if (refused && refused.errors.length > 1) Object.assign(rc, { errors: refused.errors });
        },
        async willSendResponse(rc) {
          if (!refused) return;
          const body = rc.response.body;
          if (body.kind === 'single' && refused.errors.length > 1) {
            body.singleResult = { ...body.singleResult, errors: formatErrors(refused.errors) };
          }
          // As Apollo left it: the parsed document of one that failed validation (the log line names its
          // operation), none for one that did not parse.
          Object.assign(rc, { document: refused.document });
        },
      };
    },
  };
}

export interface ApolloDeps {
  config: Config;
  schema: GraphQLSchema;
  pipeline: Pipeline;
  observer: Observer;
  tracing: Tracing | null;
  log: Logger;
  httpServer: Server;
  /** Shared APQ registrations (REDIS_URL; cache/apq.ts). */
  apq: StringKeyValueCache | undefined;
  /** SAFELIST=1: no APQ registration, which would let any client add to the list (plugins/safelist.ts). */
  safelist: boolean;
}

export function createApollo(deps: ApolloDeps): ApolloServer<Context> {
  const { config, schema, httpServer } = deps;
  return new ApolloServer<Context>({
    schema,
    // Always on for Apollo: INTROSPECTION=0 is the pipeline's own rule, whose refusal names the setting.
    introspection: true,
    ...(deps.safelist ? { persistedQueries: false as const } : {}),
    ...(deps.apq ? { cache: deps.apq } : {}),
    // The pipeline keeps the parsed documents (document.ts); a store here would hand Apollo one to use instead.
    documentStore: null,
    includeStacktraceInErrorResponses: false,
    // Whoever started the gateway stops it (src/main.ts on SIGINT/SIGTERM, with gateway.close()):
    // Apollo's own signal handler would race that close (which then never resolves) and re-send the signal.
    stopOnTerminationSignals: false,
    formatError,
    logger: deps.log.child({ component: 'apollo' }),
    plugins: [
      // First: the others' hooks see what the pipeline set (above).
      pipelinePlugin(deps.pipeline),
      // Then the operation line, written whatever a later plugin decides.
      deps.observer.plugin,
      // The operation's span, and the current field for resolver spans (plugins/tracing.ts).
      ...(deps.tracing ? [tracingPlugin<Context>(deps.tracing, schema)] : []),
      // Every secret of the request, by value, out of every error sent or logged.
      redactionPlugin({ serviceAuth: config.serviceAuth }),
      ApolloServerPluginLandingPageDisabled(),
      // Cache-control hints are not used, and its per-field hook costs on every list:
      // `cache-control` is derived from the operation's upstream session instead (cache/response.ts).
      ApolloServerPluginCacheControlDisabled(),
      cacheControlPlugin(config.cache.ttlSeconds * 1000),
      ApolloServerPluginUsageReportingDisabled(),
      // Closes the HTTP server on stop: in-flight requests finish, idle connections go.
      ApolloServerPluginDrainHttpServer({ httpServer }),
    ],
  });
}

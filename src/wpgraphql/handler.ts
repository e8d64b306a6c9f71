/**
 * The compatible graph over HTTP, for a listener to mount at its path (`/wpgraphql` by default): GraphQL over HTTP
 * (POST JSON, or GET with `query`), GraphiQL for a browser's GET, one main-graph context per operation (made by the
 * caller, who owns the upstream client, the site's index, the caches and the limits). Validation is `wpGraphqlRules()`
 * plus the caller's rules (depth, aliases: limits.ts); execution is graphql-js's. Errors other than GatewayErrors are
 * masked as internal errors, as the main graph masks them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  GraphQLError,
  execute,
  getOperationAST,
  parse,
  validate,
  type DocumentNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import type { Context } from '../context.ts';
import { isGatewayError } from '../errors.ts';
import { json, readGraphQLRequest } from '../http.ts';
import { wpGraphqlRules } from './rules.ts';
import { createWpGraphqlSchema } from './schema.ts';

export const WPGRAPHQL_PATH = '/wpgraphql';

export interface WpGraphqlHandlerOptions {
  /** Where it answers; other paths are left to the caller (the handler returns false). */
  path?: string;
  /** One context per operation, as the main graph makes them (createContext with the request's credentials). */
  context: (req: IncomingMessage) => Context | Promise<Context>;
  /** Rules beside the compatible graph's own (the gateway's depth and alias limits). */
  rules?: readonly ValidationRule[];
  schema?: GraphQLSchema;
}

function formatError(e: GraphQLError): GraphQLFormattedError {
  const original = e.originalError;
  if (original && !(original instanceof GraphQLError) && !isGatewayError(original))
    return {
      message: 'Internal server error',
      ...(e.path ? { path: e.path } : {}),
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    };
  const gateway = isGatewayError(original) ? original : e;
  return {
    ...e.toJSON(),
    ...(gateway.extensions && Object.keys(gateway.extensions).length ? { extensions: gateway.extensions } : {}),
  };
}

interface Params {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

function paramsOf(method: string, body: unknown, search: URLSearchParams): Params {
  if (method === 'GET') {
    const variables = search.get('variables');
    return {
      query: search.get('query') ?? undefined,
      variables: variables ? (JSON.parse(variables) as unknown) : undefined,
      operationName: search.get('operationName') ?? undefined,
    };
  }
  return typeof body === 'object' && body !== null ? body : {};
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Handles a request for the compatible graph's path; false for any other path. */
export function createWpGraphqlHandler(
  options: WpGraphqlHandlerOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const path = options.path ?? WPGRAPHQL_PATH;
  const schema = options.schema ?? createWpGraphqlSchema();
  const rules = [...wpGraphqlRules(), ...(options.rules ?? [])];
  const bad = (res: ServerResponse, status: number, message: string, code = 'BAD_REQUEST') =>
    json(res, status, { errors: [{ message, extensions: { code } }] });
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== path) return false;
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'POST') {
      res.setHeader('allow', 'GET, POST');
      bad(res, 405, `${path} answers GET and POST`, 'METHOD_NOT_ALLOWED');
      return true;
    }
    if (method === 'GET' && !url.searchParams.has('query') && (req.headers.accept ?? '').includes('text/html')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(wpGraphiqlPage(path));
      return true;
    }
    const read = await readGraphQLRequest(req, res, method, url.search);
    if (!read) return true;
    let params: Params;
    try {
      params = paramsOf(method, read.body, url.searchParams);
    } catch {
      bad(res, 400, 'variables is not valid JSON');
      return true;
    }
    if (typeof params.query !== 'string' || !params.query) {
      bad(res, 400, 'The request has no query');
      return true;
    }
    let document: DocumentNode;
    try {
      document = parse(params.query);
    } catch (e) {
      json(res, 400, { errors: [formatError(e instanceof GraphQLError ? e : new GraphQLError(String(e)))] });
      return true;
    }
    const invalid = validate(schema, document, rules);
    if (invalid.length) {
      json(res, 400, {
        errors: invalid.map((e) => ({
          ...formatError(e),
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED', ...e.extensions },
        })),
      });
      return true;
    }
    const operationName = typeof params.operationName === 'string' ? params.operationName : undefined;
    const op = getOperationAST(document, operationName);
    if (!op) {
      bad(res, 400, operationName ? `No operation named "${operationName}"` : 'Name the operation to run');
      return true;
    }
    if (op.operation !== 'query') {
      bad(res, 400, 'The compatible graph serves queries only (no mutations or subscriptions)');
      return true;
    }
    const result = await execute({
      schema,
      document,
      contextValue: await options.context(req),
      variableValues: isRecord(params.variables) ? params.variables : undefined,
      operationName,
    });
    json(res, 200, {
      ...(result.errors ? { errors: result.errors.map(formatError) } : {}),
      data: result.data ?? null,
    });
    return true;
  };
}

const FIRST_TAB = `query Posts {
  posts(first: 5, where: { orderby: { field: DATE, order: DESC } }) {
    pageInfo { hasNextPage endCursor }
    nodes { databaseId title uri date seo { title metaDesc } }
  }
}`;

/** GraphiQL on the compatible graph, with the main listener's assets (/graphiql/*, src/graphiql.ts). */
export function wpGraphiqlPage(endpoint: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>sitegraph · WPGraphQL-compatible graph</title>
<link rel="stylesheet" href="/graphiql/graphiql.min.css">
<style>html,body,#graphiql{height:100%;margin:0;}</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="/graphiql/react.production.min.js"></script>
<script src="/graphiql/react-dom.production.min.js"></script>
<script src="/graphiql/graphiql.min.js"></script>
<script>
  const endpoint = new URL(${JSON.stringify(endpoint)}, location.href);
  const fetcher = async (params, opts) => {
    const headers = { 'content-type': 'application/json', ...(opts && opts.headers) };
    const res = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify(params) });
    return res.json();
  };
  ReactDOM.createRoot(document.getElementById('graphiql')).render(React.createElement(GraphiQL, {
    fetcher,
    defaultQuery: ${JSON.stringify(FIRST_TAB).replace(/</g, '\\u003c')},
    shouldPersistHeaders: false,
  }));
</script>
</body>
</html>`;
}

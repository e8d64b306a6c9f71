/**
 * A fetch call typed by the document: the same request works against WPGraphQL's /graphql and sitegraph's /wpgraphql.
 * WPGraphQL answers a field's failure as an error beside the rest of the data, and front ends written for it render
 * what came back, so `execute` returns both; only an answer without data (a document refused, an HTTP failure) throws.
 */
import type { TypedDocumentString } from './gql/graphql.ts';

export interface GraphQLErrorItem {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

export interface Result<TResult> {
  data: TResult;
  errors: GraphQLErrorItem[];
}

/** The server answered without data: its errors (a validation failure names the field in extensions.code). */
export class RefusedError extends Error {
  constructor(
    readonly status: number,
    readonly errors: GraphQLErrorItem[],
  ) {
    super(errors.map((e) => `${e.extensions?.code ?? 'ERROR'}: ${e.message}`).join('; '));
    this.name = 'RefusedError';
  }
}

/** Variables are optional exactly when the operation has none that are required. */
type VariablesArg<V> = Record<string, never> extends V ? [variables?: V] : [variables: V];

export async function execute<TResult, TVariables>(
  endpoint: string,
  document: TypedDocumentString<TResult, TVariables>,
  ...[variables]: VariablesArg<TVariables>
): Promise<Result<TResult>> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: document.toString(), variables }),
  });
  const body = (await response.json()) as { data?: TResult | null; errors?: GraphQLErrorItem[] };
  if (body.data == null) {
    throw new RefusedError(response.status, body.errors ?? [{ message: `HTTP ${response.status} without data` }]);
  }
  return { data: body.data, errors: body.errors ?? [] };
}

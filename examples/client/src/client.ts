/**
 * A tiny typed GraphQL client over fetch: the result and variables types come
 * from the document, and the request names the document by its persisted id
 * (`documentId`), so it runs on a gateway with `SAFELIST=1`. A document without
 * an id (codegen run without `persistedDocuments`) is sent as text.
 */
import type { TypedDocumentString } from './gql/graphql.ts';

export interface GraphQLErrorItem {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

/** The gateway answered with errors (GraphQL errors, a 429, a refused operation). */
export class GraphQLRequestError extends Error {
  constructor(
    readonly status: number,
    readonly errors: GraphQLErrorItem[],
  ) {
    super(errors.map((e) => `${e.extensions?.code ?? 'ERROR'}: ${e.message}`).join('; '));
    this.name = 'GraphQLRequestError';
  }
}

/** Variables are optional exactly when the operation has none that are required. */
type VariablesArg<V> = Record<string, never> extends V ? [variables?: V] : [variables: V];

export async function execute<TResult, TVariables>(
  endpoint: string,
  document: TypedDocumentString<TResult, TVariables>,
  ...[variables]: VariablesArg<TVariables>
): Promise<TResult> {
  const id = document.__meta__?.hash as string | undefined;
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
    body: JSON.stringify(id ? { documentId: id, variables } : { query: document.toString(), variables }),
  });
  const body = (await response.json()) as { data?: TResult | null; errors?: GraphQLErrorItem[] };
  if (body.errors?.length || body.data == null) {
    throw new GraphQLRequestError(
      response.status,
      body.errors ?? [{ message: `HTTP ${response.status} without data` }],
    );
  }
  return body.data;
}

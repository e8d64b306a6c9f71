/**
 * A hand-written route (one whose logic is real, so not a declaration of
 * declare.ts): its method and its path as spec/routes.tsv writes it, said
 * once. The request takes its path and its label from it, and the route
 * table's row (`rowOf`) its method and path, so the row is derived from the
 * request rather than kept beside it. Imports nothing: the request modules
 * that use it sit below the generated types.
 */
export type HandMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HandRoute<M extends HandMethod = HandMethod> {
  readonly method: M;
  /** As in spec/routes.tsv (`<param>` segments as written there). */
  readonly path: string;
  /** `METHOD path`: the route label of errors, metrics and logs. */
  readonly label: string;
}

export function handRoute<M extends HandMethod>(method: M, path: string): HandRoute<M> {
  return { method, path, label: `${method} ${path}` };
}

/**
 * Persisted documents and the operation safelist (`PERSISTED_DOCUMENTS`,
 * `SAFELIST=1`).
 *
 * The manifest is what graphql-codegen's client preset writes with
 * `presetConfig.persistedDocuments` (`persisted-documents.json`,
 * `{ "sha256:<hex>": "<document>" }`; bare hex keys of older releases or of
 * `hashAlgorithm: 'sha1'` too), or Apollo's persisted query manifest
 * (`{ format: "apollo-persisted-query-manifest", operations: [{ id, body }] }`).
 *
 * A request names a document by `documentId` (the GraphQL-over-HTTP persisted
 * documents appendix, what the preset's `__meta__.hash` is for) or by
 * `extensions.persistedQuery.sha256Hash` (Apollo's APQ shape), in a POST body
 * or in GET parameters. The request is rewritten to carry the document's text
 * before Apollo sees it, so everything after (limits, logs, metrics) runs as
 * for any operation.
 *
 * This runs on the HTTP request rather than as an Apollo plugin because Apollo
 * drops `documentId` while parsing the request, and because a refusal should
 * cost no parsing of the refused text.
 *
 * Without `SAFELIST`, manifest ids are a convenience (short requests, GET URLs a
 * CDN can key on) and anything else still runs, APQ included. With it, only
 * manifest operations run: an unknown id is PERSISTED_QUERY_NOT_FOUND (400), any
 * other query text OPERATION_NOT_ALLOWED (403), and APQ registration is off
 * (pipeline/apollo.ts), since it would let a client add to the list.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Kind, parse } from 'graphql';
import { ConfigError, type Config } from '../config.ts';

export interface PersistedDocuments {
  /** Number of documents in the manifest. */
  readonly size: number;
  readonly safelist: boolean;
  /** The document of an id, in any of the accepted spellings. */
  lookup(id: string): string | undefined;
}

export interface Refusal {
  status: number;
  body: { errors: { message: string; extensions: { code: string } }[] };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function refusal(status: number, code: string, message: string): Refusal {
  return { status, body: { errors: [{ message, extensions: { code } }] } };
}

/** The manifest's entries, from either format; anything else is a ConfigError. */
function entries(path: string, json: unknown): [string, unknown][] {
  if (!json || typeof json !== 'object' || Array.isArray(json)) {
    throw new ConfigError(`PERSISTED_DOCUMENTS ${path}: expected a JSON object of { "<id>": "<document>" }`);
  }
  const o = json as Record<string, unknown>;
  if (o.format === 'apollo-persisted-query-manifest') {
    if (!Array.isArray(o.operations))
      throw new ConfigError(`PERSISTED_DOCUMENTS ${path}: an Apollo manifest needs an "operations" array`);
    return o.operations.map((op: unknown, i) => {
      const { id, body } = (op ?? {}) as { id?: unknown; body?: unknown };
      if (typeof id !== 'string' || !id)
        throw new ConfigError(`PERSISTED_DOCUMENTS ${path}: operations[${i}] has no "id"`);
      return [id, body];
    });
  }
  return Object.entries(o);
}

/** Reads and checks the manifest: every entry a parsable operation document under a non-empty id. */
export async function loadPersistedDocuments(config: Config['persistedDocuments']): Promise<PersistedDocuments | null> {
  const path = config.manifest;
  if (!path) return null;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`PERSISTED_DOCUMENTS: cannot read ${path}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`PERSISTED_DOCUMENTS ${path}: not valid JSON: ${(err as Error).message}`);
  }
  const byId = new Map<string, string>();
  for (const [id, doc] of entries(path, json)) {
    if (typeof doc !== 'string' || !doc.trim())
      throw new ConfigError(`PERSISTED_DOCUMENTS ${path}: "${id}" is not a document string`);
    let hasOperation: boolean;
    try {
      hasOperation = parse(doc).definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION);
    } catch (err) {
      throw new ConfigError(`PERSISTED_DOCUMENTS ${path}: "${id}" does not parse: ${(err as Error).message}`);
    }
    if (!hasOperation) throw new ConfigError(`PERSISTED_DOCUMENTS ${path}: "${id}" has no operation`);
    // A `sha256:` id that is not the document's hash is a corrupted or hand-edited manifest.
    if (id.startsWith('sha256:') && id.slice('sha256:'.length) !== sha256(doc)) {
      throw new ConfigError(`PERSISTED_DOCUMENTS ${path}: "${id}" is not the sha256 of its document`);
    }
    byId.set(id, doc);
  }
  if (byId.size === 0) throw new ConfigError(`PERSISTED_DOCUMENTS ${path}: the manifest has no documents`);
  // Every document also under the bare sha256 of its text: what an APQ client
  // sends as `sha256Hash`, whatever id the manifest gave it.
  const byHash = new Map<string, string>();
  for (const doc of byId.values()) byHash.set(sha256(doc), doc);
  return {
    size: byId.size,
    safelist: config.safelist,
    lookup(id) {
      const bare = id.startsWith('sha256:') ? id.slice('sha256:'.length) : id;
      return byId.get(id) ?? byHash.get(bare.toLowerCase());
    },
  };
}

/** The fields of one GraphQL request this module reads or rewrites. */
interface RequestFields {
  query?: unknown;
  documentId?: unknown;
  extensions?: unknown;
}

/**
 * Resolves one request: the document text in place of its id, or the reason it
 * may not run. `undefined` result: pass on unchanged.
 */
function resolveOne(
  docs: PersistedDocuments,
  r: RequestFields,
): { query: string; extensions: Record<string, unknown> | undefined } | Refusal | undefined {
  const extensions =
    r.extensions && typeof r.extensions === 'object' ? (r.extensions as Record<string, unknown>) : undefined;
  const apq = extensions?.persistedQuery as { sha256Hash?: unknown } | undefined;
  const apqHash = typeof apq?.sha256Hash === 'string' ? apq.sha256Hash : undefined;
  const id = typeof r.documentId === 'string' && r.documentId ? r.documentId : apqHash;
  if (id !== undefined) {
    const doc = docs.lookup(id);
    if (doc !== undefined) {
      if (typeof r.query === 'string' && r.query !== doc)
        return refusal(400, 'BAD_REQUEST', `The query text is not the document of ${id}`);
      const { persistedQuery: _, ...rest } = extensions ?? {};
      return { query: doc, extensions: Object.keys(rest).length ? rest : undefined };
    }
    // Not ours: without the safelist an APQ hash is Apollo's to answer (its
    // PERSISTED_QUERY_NOT_FOUND makes the client register the text).
    if (docs.safelist || r.documentId !== undefined) {
      return refusal(400, 'PERSISTED_QUERY_NOT_FOUND', `No persisted document has the id ${JSON.stringify(id)}`);
    }
    return undefined;
  }
  if (docs.safelist && typeof r.query === 'string') {
    // The exact text of a manifest document is not ad hoc: clients that send text still work.
    if (docs.lookup(sha256(r.query)) === undefined) {
      return refusal(
        403,
        'OPERATION_NOT_ALLOWED',
        'Only persisted operations run on this gateway; send the documentId of an operation in its manifest',
      );
    }
  }
  return undefined;
}

const isRefusal = (x: unknown): x is Refusal => !!x && typeof x === 'object' && 'status' in x;

/** A POST body (object, or a batch array): the rewritten body, or a refusal. */
export function persistedBody(docs: PersistedDocuments, body: unknown): { body: unknown } | Refusal {
  if (Array.isArray(body)) {
    const out: unknown[] = [];
    for (const item of body) {
      const r = persistedBody(docs, item);
      if (isRefusal(r)) return r;
      out.push(r.body);
    }
    return { body: out };
  }
  if (!body || typeof body !== 'object') return { body };
  const r = resolveOne(docs, body as RequestFields);
  if (r === undefined) return { body };
  if (isRefusal(r)) return r;
  const { documentId: _, extensions: __, ...rest } = body as Record<string, unknown>;
  return { body: { ...rest, query: r.query, ...(r.extensions ? { extensions: r.extensions } : {}) } };
}

/** GET parameters (`documentId`, or `extensions` as JSON): the rewritten query string, or a refusal. */
export function persistedSearch(docs: PersistedDocuments, search: string): { search: string } | Refusal {
  const params = new URLSearchParams(search);
  let extensions: unknown;
  const rawExtensions = params.get('extensions');
  if (rawExtensions) {
    try {
      extensions = JSON.parse(rawExtensions);
    } catch {
      // Apollo answers a malformed `extensions` with its own 400.
      return { search };
    }
  }
  const r = resolveOne(docs, {
    query: params.get('query') ?? undefined,
    documentId: params.get('documentId') ?? undefined,
    extensions,
  });
  if (r === undefined) return { search };
  if (isRefusal(r)) return r;
  params.delete('documentId');
  params.set('query', r.query);
  if (r.extensions) params.set('extensions', JSON.stringify(r.extensions));
  else params.delete('extensions');
  return { search: `?${params.toString()}` };
}

/** One GraphQL HTTP request (POST body or GET query string), rewritten or refused. */
export function applyPersistedDocuments(
  docs: PersistedDocuments,
  method: string,
  body: unknown,
  search: string,
): { body: unknown; search: string } | Refusal {
  if (method === 'POST') {
    const r = persistedBody(docs, body);
    return isRefusal(r) ? r : { body: r.body, search };
  }
  const r = persistedSearch(docs, search);
  return isRefusal(r) ? r : { body, search: r.search };
}

/**
 * A request that names a document by `documentId` on a gateway with no manifest (PERSISTED_DOCUMENTS
 * unset): refused saying so, rather than with Apollo's "must contain a non-empty query". Requests
 * with their query text, and APQ hashes (Apollo's own), pass.
 */
export function documentIdWithoutManifest(method: string, body: unknown, search: string): Refusal | undefined {
  const items: unknown[] =
    method === 'POST' ? (Array.isArray(body) ? body : [body]) : [Object.fromEntries(new URLSearchParams(search))];
  const named = items.some((item) => {
    const r = (item && typeof item === 'object' ? item : {}) as RequestFields;
    return typeof r.documentId === 'string' && r.documentId !== '' && (typeof r.query !== 'string' || r.query === '');
  });
  if (!named) return undefined;
  return refusal(
    400,
    'PERSISTED_QUERY_NOT_FOUND',
    'This gateway has no persisted-document manifest (PERSISTED_DOCUMENTS is unset), so a documentId names nothing here: ' +
      "send the query text, or start the gateway with PERSISTED_DOCUMENTS=<manifest> (the client's generated persisted-documents.json).",
  );
}

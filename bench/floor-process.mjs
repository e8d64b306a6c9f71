/**
 * Floors for W1 uncached: the least a process in the gateway's place does,
 * layer by layer, as a process of its own for bench/floors.ts (the IPC
 * protocol of bench/gateway-process.mjs). Plain JavaScript, started without a
 * TypeScript loader as the compiled gateway is, so the legacy list's window
 * (cpu-kit.ts OPEN) and the undoing of the coding are written here again. Each takes a GraphQL POST, reads and parses
 * its JSON body, asks the site for the legacy list as the gateway does (undici,
 * `accept-encoding: gzip, br`), undoes the coding, parses the page, and answers
 * W1's fields as JSON. No checks, limits, logging, metrics, cache, sessions or
 * paging: what the gateway pays above a floor is its own.
 *
 * BENCH_FLOOR says how the answer is made:
 * - `proxy`: the fields picked by hand, no GraphQL at all;
 * - `graphql-js`: graphql-js `execute` over a five-type schema of W1's shape,
 *   the document parsed and validated once per query text;
 * - `apollo`: the same schema behind Apollo Server's `executeHTTPGraphQLRequest`,
 *   as src/server.ts calls it (Apollo's request pipeline and graphql-js);
 * - `jit`: the same schema, the document compiled once by graphql-jit.
 */
import { createServer } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ApolloServer, HeaderMap } from '@apollo/server';
import { buildSchema, execute, parse, validate } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { Pool } from 'undici';

const upstream = process.env.BENCH_UPSTREAM;
const mode = process.env.BENCH_FLOOR ?? 'proxy';
if (!upstream || !process.send || !['proxy', 'graphql-js', 'apollo', 'jit'].includes(mode)) {
  console.error(
    'bench/floor-process.mjs is started by bench/floors.ts (BENCH_UPSTREAM, BENCH_FLOOR and an IPC channel)',
  );
  process.exit(2);
}
const site = new URL(upstream);
const pool = new Pool(site.origin, { connections: 16 });
const root = site.pathname.replace(/\/$/, '');
const OPEN = 'status=publish&start_date=1900-01-01%2000%3A00%3A00&end_date=9999-12-31%2023%3A59%3A59';

/** The site's legacy list, page 1: its events, parsed. */
async function legacyEvents(first) {
  const r = await pool.request({
    method: 'GET',
    path: `${root}/calendar/events/v1/events?per_page=${first}&page=1&${OPEN}`,
    headers: { accept: 'application/json', 'accept-encoding': 'gzip, br' },
  });
  const raw = Buffer.from(await r.body.arrayBuffer());
  if (r.statusCode !== 200) throw new Error(`the site answered ${r.statusCode}`);
  const coding = r.headers['content-encoding'];
  const body = coding === 'gzip' ? gunzipSync(raw) : coding === 'br' ? brotliDecompressSync(raw) : raw;
  return JSON.parse(body.toString('utf8')).events;
}
const venuesOf = (e) => (Array.isArray(e.venue) ? e.venue : e.venue ? [e.venue] : []);

const schema = buildSchema(`
  type Query { events(first: Int = 20): EventConnection }
  type EventConnection { nodes: [Event!]! }
  type Event { title: String startDate: String venues: [Venue!]! organizers: [Organizer!]! }
  type Venue { title: String city: String }
  type Organizer { title: String }
`);
const resolvers = {
  Query: { events: async (_, { first }) => ({ nodes: await legacyEvents(first) }) },
  Event: { startDate: (e) => e.start_date, venues: venuesOf, organizers: (e) => e.organizer ?? [] },
  Venue: { title: (v) => v.venue },
  Organizer: { title: (o) => o.organizer },
};
for (const [type, fields] of Object.entries(resolvers))
  for (const [name, fn] of Object.entries(fields)) schema.getType(type).getFields()[name].resolve = fn;

const send = (res, status, text) => {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
};
const documents = new Map();
function prepared(query, make) {
  let d = documents.get(query);
  if (!d) {
    const doc = parse(query);
    const errors = validate(schema, doc);
    if (errors.length) throw errors[0];
    d = make(doc);
    documents.set(query, d);
  }
  return d;
}

const answer = {
  async proxy() {
    const nodes = (await legacyEvents(20)).map((e) => ({
      title: e.title,
      startDate: e.start_date,
      venues: venuesOf(e).map((v) => ({ title: v.venue, city: v.city ?? null })),
      organizers: (e.organizer ?? []).map((o) => ({ title: o.organizer })),
    }));
    return JSON.stringify({ data: { events: { nodes } } });
  },
  async 'graphql-js'({ query }) {
    return JSON.stringify(await execute({ schema, document: prepared(query, (doc) => doc), contextValue: {} }));
  },
  async jit({ query }) {
    const compiled = prepared(query, (doc) => {
      const c = compileQuery(schema, doc);
      if (!isCompiledQuery(c)) throw new Error(c.errors?.[0]?.message ?? 'graphql-jit could not compile the query');
      return c;
    });
    return compiled.stringify(await compiled.query(undefined, {}, {}));
  },
};

const apollo = mode === 'apollo' ? new ApolloServer({ schema }) : null;
await apollo?.start();

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    void (async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (!apollo) return send(res, 200, await answer[mode](body));
      const headers = new HeaderMap();
      for (const [k, v] of Object.entries(req.headers))
        if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
      const r = await apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest: { method: req.method ?? 'POST', headers, search: '', body },
        context: async () => ({}),
      });
      for (const [k, v] of r.headers) res.setHeader(k, v);
      res.statusCode = r.status ?? 200;
      res.end(r.body.kind === 'complete' ? r.body.string : '');
    })().catch((err) => send(res, 500, JSON.stringify({ errors: [{ message: String(err) }] })));
  });
});
server.listen(0, '127.0.0.1', () => process.send({ url: `http://127.0.0.1:${server.address().port}/graphql` }));
process.on('message', (m) => {
  if (m === 'cpu') process.send({ cpu: process.cpuUsage(), rss: process.memoryUsage().rss });
  if (m === 'stop') server.close(() => void pool.close().then(() => process.exit(0)));
});

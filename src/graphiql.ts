/**
 * GraphiQL, served from the project's own node_modules (graphiql 3's UMD
 * bundle with React 18's UMD builds, graphql-sse's and graphql-ws's UMD
 * clients for subscriptions): no CDN, works with no internet.
 *
 * Queries and mutations go as plain requests; subscriptions over GraphQL over
 * SSE, or WebSocket with `?subscriptions=ws` in the page's URL
 * (docs/subscriptions.md), with the headers of GraphiQL's headers editor (a
 * WebSocket takes them as its `connection_init` payload).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** URL name -> file and content type. */
const ASSETS: Record<string, { pkg: string; file: string; type: string }> = {
  'react.production.min.js': {
    pkg: 'react',
    file: 'umd/react.production.min.js',
    type: 'text/javascript; charset=utf-8',
  },
  'react-dom.production.min.js': {
    pkg: 'react-dom',
    file: 'umd/react-dom.production.min.js',
    type: 'text/javascript; charset=utf-8',
  },
  'graphiql.min.js': { pkg: 'graphiql', file: 'graphiql.min.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.min.css': { pkg: 'graphiql', file: 'graphiql.min.css', type: 'text/css; charset=utf-8' },
  'graphql-sse.min.js': { pkg: 'graphql-sse', file: 'umd/graphql-sse.min.js', type: 'text/javascript; charset=utf-8' },
  'graphql-ws.min.js': { pkg: 'graphql-ws', file: 'umd/graphql-ws.min.js', type: 'text/javascript; charset=utf-8' },
};

const cache = new Map<string, Buffer>();

/** An asset's bytes and type; null for names that are not ours. */
export function graphiqlAsset(name: string): { body: Buffer; type: string } | null {
  const a = ASSETS[name];
  if (!a) return null;
  let body = cache.get(name);
  if (!body) {
    // Through package.json: the UMD files are not in the packages' `exports`.
    body = readFileSync(join(dirname(require.resolve(`${a.pkg}/package.json`)), a.file));
    cache.set(name, body);
  }
  return { body, type: a.type };
}

/** The example tabs; the first one lists events from today (so it is rendered per request). */
export function examples(today = new Date().toISOString().slice(0, 10)): { title: string; query: string }[] {
  return [
    {
      title: 'Upcoming events',
      query: `# Events with their venues and organizers: one upstream request.
query UpcomingEvents {
  events(first: 10, where: { startDate: "${today}" }) {
    totalCount
    nodes {
      title
      startDate
      endDate
      timezone
      venues { title city }
      organizers { title }
      categories { name }
    }
    pageInfo { hasNextPage endCursor }
  }
}`,
    },
    {
      title: 'One event',
      query: `# The next event, in full. One event by ID: event(id: "<global ID>"),
# event(id: "<database ID>", idType: DATABASE_ID) or event(id: "<slug>", idType: SLUG).
query OneEvent {
  events(first: 1, where: { startDate: "${today}" }) {
    nodes {
      id
      databaseId
      slug
      title
      startDate
      startDateUtc
      cost
      costDetails { currencyCode values }
      website
      venues { title address city }
      organizers { title email }
    }
  }
}`,
    },
    {
      title: 'Venues and their events',
      query: `# Near a place: where: { near: "Paris", geolocation: { latitude: 48.8566, longitude: 2.3522, distance: 50 } }
# (calendar-core/v1, The Events Calendar 6.15+).
query Venues {
  venues(first: 5, where: { hasEvents: true }) {
    totalCount
    nodes { title city latitude longitude events(first: 3) { nodes { title startDate } } }
  }
}`,
    },
    {
      title: 'Categories tree',
      query: `query Categories {
  categories(first: 20, where: { hideEmpty: false, parent: 0 }) {
    nodes { name count children { name count } }
  }
}`,
    },
    {
      title: 'Site',
      query: `query Site {
  site { name url timezone namespaces calendarInterface maxBatchSize }
}`,
    },
  ];
}

/**
 * The subscription tabs: run over SSE (or WebSocket, `?subscriptions=ws`); kept apart from `examples`, which run as
 * plain requests.
 */
export function subscriptionExamples(): { title: string; query: string }[] {
  return [
    {
      title: 'Live event changes',
      query: `# Changes of published events as they happen: made on the site (found by the next poll,
# SUBSCRIPTION_POLL_SECONDS) or written through the gateway (at once). Run it, then change an
# event in wp-admin, or with a mutation in another tab. Over GraphQL over SSE; add
# ?subscriptions=ws to this page's URL for WebSocket. Your Authorization header applies.
subscription LiveEvents {
  eventChanged(where: { status: [PUBLISH] }) {
    kind
    source
    at
    databaseId
    event { title startDate status venues { title } }
  }
}`,
    },
  ];
}

/**
 * The page's fetcher: plain requests for queries and mutations, graphql-sse's client (or
 * graphql-ws's, `?subscriptions=ws`) for subscriptions, one client per set of headers. Which
 * operation runs is read from the text (the one named, else the first), comments and strings left
 * out. `endpoint` is defined before it.
 */
const FETCHER = String.raw`
  const plain = GraphiQL.createFetcher({ url: endpoint.href });
  const overWs = new URLSearchParams(location.search).get('subscriptions') === 'ws';
  const clients = new Map();
  // The headers editor's entries with a value: its blank Authorization is not sent (the gateway would
  // take it for none anyway, but a proxy on the way might not).
  const filled = (headers) => Object.fromEntries(Object.entries(headers || {}).filter(([, v]) => typeof v === 'string' && v.trim() !== ''));
  const clientFor = (headers) => {
    const given = filled(headers);
    const key = JSON.stringify(given);
    if (!clients.has(key)) {
      clients.set(key, overWs
        ? graphqlWs.createClient({ url: endpoint.href.replace(/^http/, 'ws'), connectionParams: given, lazy: true })
        : graphqlSse.createClient({ url: endpoint.href, headers: given }));
    }
    return clients.get(key);
  };
  // The operations of a document, comments and strings left out.
  const operations = (query) => {
    const text = String(query || '').replace(/"""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*/g, ' ');
    return [...text.matchAll(/(^|[}\s])(query|mutation|subscription)\b\s*([_A-Za-z][_0-9A-Za-z]*)?/g)].map((m) => ({ type: m[2], name: m[3] }));
  };
  const fetcher = (params, opts) => {
    const ops = operations(params.query);
    // Right after a tab switch GraphiQL can still send the previous tab's operation name: a name the
    // document does not define is dropped when the document holds one operation.
    if (params.operationName && ops.length === 1 && ops[0].name !== params.operationName) params = { ...params, operationName: ops[0].name };
    const op = params.operationName ? ops.find((o) => o.name === params.operationName) : ops[0];
    return op !== undefined && op.type === 'subscription' ? clientFor(opts && opts.headers).iterate(params) : plain(params, { ...opts, headers: filled(opts && opts.headers) });
  };
`;

export function graphiqlPage(endpoint: string): string {
  const tabs = JSON.stringify([...examples(), ...subscriptionExamples()].map((e) => ({ query: e.query })));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>sitegraph · GraphiQL</title>
<link rel="stylesheet" href="/graphiql/graphiql.min.css">
<style>html,body,#graphiql{height:100%;margin:0;}</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="/graphiql/react.production.min.js"></script>
<script src="/graphiql/react-dom.production.min.js"></script>
<script src="/graphiql/graphiql.min.js"></script>
<script src="/graphiql/graphql-sse.min.js"></script>
<script src="/graphiql/graphql-ws.min.js"></script>
<script>
  const endpoint = new URL(${JSON.stringify(endpoint)}, location.href);${FETCHER}
  const root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(React.createElement(GraphiQL, {
    fetcher,
    defaultTabs: ${tabs.replace(/</g, '\\u003c')},
    // Fill in to act as a site user: "Basic " + base64("login:application password").
    defaultHeaders: JSON.stringify({ Authorization: '' }, null, 2),
    shouldPersistHeaders: false,
    defaultEditorToolsVisibility: true,
  }));
</script>
</body>
</html>`;
}

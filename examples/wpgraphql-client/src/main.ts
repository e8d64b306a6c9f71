/**
 * A front end's pages through WPGraphQL's queries: `npx tsx examples/wpgraphql-client/src/main.ts [endpoint]`, the
 * endpoint being WPGraphQL (`https://site.example/graphql`) or sitegraph's compatible graph
 * (`http://127.0.0.1:4000/wpgraphql`, the default): the same documents, the same types. Each page starts from what
 * the previous one listed (the newest post's URI, an event's slug), so it needs no site's names.
 */
import { pathToFileURL } from 'node:url';
import { execute, type GraphQLErrorItem } from './client.ts';
import {
  EventBySlugQuery,
  EventsBetweenQuery,
  NodeByUriQuery,
  PostSeoQuery,
  PostsQuery,
  VenuesQuery,
} from './operations.ts';

export interface Pages {
  posts: string[];
  /** The newest post, read by URI through nodeByUri and through post(idType: URI) with its SEO. */
  post: { uri: string; typename: string; seoTitle: string | null } | null;
  events: string[];
  event: { title: string | null; venue: string | null; organizers: string[] } | null;
  venues: string[];
  /** Errors answered beside data, by operation. */
  errors: Record<string, GraphQLErrorItem[]>;
}

/** The calendar's `DateInput` for a day: WPGraphQL's date queries take year, month and day. */
const day = (d: Date) => ({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });

export async function readPages(endpoint: string, from = new Date(), days = 365): Promise<Pages> {
  const errors: Record<string, GraphQLErrorItem[]> = {};
  const note = (name: string, e: GraphQLErrorItem[]) => {
    if (e.length) errors[name] = e;
  };

  const posts = await execute(endpoint, PostsQuery, { first: 5 });
  note('Posts', posts.errors);
  const newest = posts.data.posts?.nodes?.[0];
  let post: Pages['post'] = null;
  if (newest?.uri) {
    const [node, seo] = await Promise.all([
      execute(endpoint, NodeByUriQuery, { uri: newest.uri }),
      execute(endpoint, PostSeoQuery, { uri: newest.uri }),
    ]);
    note('NodeByUri', node.errors);
    note('PostSeo', seo.errors);
    post = {
      uri: newest.uri,
      typename: node.data.nodeByUri?.__typename ?? 'none',
      seoTitle: seo.data.post?.seo?.title ?? null,
    };
  }

  const until = new Date(from.getTime() + days * 86_400_000);
  const events = await execute(endpoint, EventsBetweenQuery, { after: day(from), before: day(until) });
  note('EventsBetween', events.errors);
  const first = events.data.events?.nodes?.[0];
  let event: Pages['event'] = null;
  if (first?.slug) {
    const one = await execute(endpoint, EventBySlugQuery, { slug: first.slug });
    note('EventBySlug', one.errors);
    const e = one.data.event;
    event = e
      ? {
          title: e.title ?? null,
          venue: e.venue?.title ?? null,
          organizers: (e.organizers?.nodes ?? []).map((o) => o?.title ?? ''),
        }
      : null;
  }

  const venues = await execute(endpoint, VenuesQuery, { first: 20 });
  note('Venues', venues.errors);

  return {
    posts: (posts.data.posts?.nodes ?? []).map((p) => `${p?.date ?? '?'} ${p?.title ?? '(untitled)'} ${p?.uri ?? ''}`),
    post,
    events: (events.data.events?.nodes ?? []).map(
      (e) => `${e?.startDate ?? '?'} ${e?.title ?? '(untitled)'} @ ${e?.venue?.title ?? 'no venue'}`,
    ),
    event,
    venues: (venues.data.venues?.nodes ?? []).map((v) => `${v?.title ?? '(untitled)'}, ${v?.city ?? '?'}`),
    errors,
  };
}

// Run as a script (not imported, as test/wpgraphql/client.test.ts does).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const endpoint = process.argv[2] ?? 'http://127.0.0.1:4000/wpgraphql';
  console.log(JSON.stringify(await readPages(endpoint), null, 2));
}

/**
 * The compatible graph's `RootSubscription` (schema-wpgraphql/subscriptions.graphql, hand-written: WPGraphQL has no
 * subscriptions). Its fields open subscriptions on the main graph's hub (src/subscriptions/): the same changes, polls,
 * limits and per-credential re-reads as `/graphql`'s `eventChanged` and `postChanged`. The re-read's models are the
 * main graph's EventModel and PostModel, which are what this graph's Event and Post resolve from (models.ts), so
 * the payload's `event` and `post` are WPGraphQL's types resolved by this graph's own resolvers, in the delivery's
 * context. Filters are the WPGraphQL names for what the hub can check on one object: `in` and `stati`.
 */
import type { GraphQLSchema } from 'graphql';
import type { Context } from '../context.ts';
import { GatewayError } from '../errors.ts';
import type { EventsWhere, PostChangesWhere, PostListStatus, PostStatus } from '../generated/graphql.ts';
import { SubscriptionContext } from '../subscriptions/context.ts';
import { byId, eventFilter, postFilter, type ObjectFilter } from '../subscriptions/filter.ts';
import type { Delivery } from '../subscriptions/hub.ts';
import type { OtherGraph } from '../subscriptions/operation.ts';
import type { Topic } from '../subscriptions/types.ts';
import { intIds } from './args.ts';
import { databaseIdArg, wpGlobalId } from './ids.ts';
import { NOT_SERVED, wpGraphqlRules } from './rules.ts';

interface ChangesWhere {
  in?: readonly (string | null)[] | null;
  stati?: readonly (string | null)[] | null;
}

interface ById {
  id: string;
  idType?: string | null;
}

/** The statuses the hub's filters know, by kind of object (WPGraphQL's PostStatusEnum has more). */
const EVENT_STATI: readonly PostStatus[] = ['PUBLISH', 'PENDING', 'DRAFT', 'FUTURE', 'PRIVATE', 'TRASH', 'AUTO_DRAFT'];
const POST_STATI: readonly PostListStatus[] = [
  'PUBLISH',
  'PENDING',
  'DRAFT',
  'FUTURE',
  'PRIVATE',
  'TRASH',
  'AUTO_DRAFT',
];

function statiOf<S extends string>(w: ChangesWhere, known: readonly S[], what: string): S[] | undefined {
  if (!w.stati) return undefined;
  return w.stati
    .filter((s): s is string => s !== null)
    .map((s) => {
      const k = known.find((x) => x === s);
      if (!k)
        throw GatewayError.badInput(`where.stati: ${s} is not a status ${what} subscriptions follow`, {
          arguments: ['where.stati'],
        });
      return k;
    });
}

/** The operation's live session: only the SSE and WebSocket transports make one. */
function live(ctx: Context): SubscriptionContext {
  if (ctx instanceof SubscriptionContext) return ctx;
  throw new GatewayError(
    'OPERATION_NOT_SUPPORTED',
    "Subscriptions are served over GraphQL over SSE and WebSocket (graphql-transport-ws) on the compatible graph's path; see docs/subscriptions.md.",
  );
}

function open(ctx: Context, topic: Topic, filter: ObjectFilter<never>) {
  return live(ctx).live.open(topic, filter, ctx);
}

/** One subscription of a single object, by WPGraphQL's `id` and `idType` (SLUG would need a read: not taken). */
function byIdArg(a: ById, field: string): ObjectFilter<never> {
  const idType = a.idType ?? 'ID';
  if (idType !== 'ID' && idType !== 'DATABASE_ID')
    throw GatewayError.badInput(`${field}: idType ${idType} is not taken here: follow it by ID or DATABASE_ID`, {
      arguments: ['idType'],
    });
  return byId(databaseIdArg(a.id, idType, 'post', field));
}

/** A delivery -> its payload, the operation's context switched to the delivery's (its credential and loaders). */
function payloadOf(payload: unknown, ctx: Context, node: 'event' | 'post') {
  const d = payload as Delivery | undefined;
  if (!d)
    throw new GatewayError('OPERATION_NOT_SUPPORTED', 'A subscription field resolves only for a change it was given.');
  if ('error' in d) throw d.error;
  live(ctx).use(d.context);
  const c = d.change;
  return {
    change: c.kind,
    [node]: d.model,
    id: wpGlobalId('post', c.id),
    databaseId: c.id,
    modifiedGmt: c.at,
    source: c.source,
  };
}

const eventWhere = (w: ChangesWhere | null | undefined): EventsWhere => {
  const ids = intIds(w?.in, 'where.in');
  const status = statiOf(w ?? {}, EVENT_STATI, 'event');
  return { ...(ids ? { ids } : {}), ...(status ? { status } : {}) };
};

const postWhere = (w: ChangesWhere | null | undefined): PostChangesWhere => {
  const include = intIds(w?.in, 'where.in');
  const status = statiOf(w ?? {}, POST_STATI, 'post');
  return { ...(include ? { include } : {}), ...(status ? { status } : {}) };
};

/** A topic's two fields: its changes matching `where`, and one object's by ID. */
function changeFields(
  topic: Topic,
  node: 'event' | 'post',
  filter: (ctx: Context, w: ChangesWhere | null | undefined) => ObjectFilter<never>,
) {
  const resolve = (payload: unknown, _a: unknown, ctx: Context) => payloadOf(payload, ctx, node);
  return {
    changed: {
      subscribe: (_p: unknown, a: { where?: ChangesWhere | null }, ctx: Context) =>
        open(ctx, topic, filter(ctx, a.where)),
      resolve,
    },
    byId: {
      subscribe: (_p: unknown, a: ById, ctx: Context) => open(ctx, topic, byIdArg(a, `${node}ChangedById`)),
      resolve,
    },
  };
}

const events = changeFields('events', 'event', (ctx, w) => eventFilter(ctx.site, eventWhere(w)));
const posts = changeFields('posts', 'post', (ctx, w) => postFilter(ctx.site, postWhere(w)));

export const wpSubscriptions = {
  eventChanged: events.changed,
  eventChangedById: events.byId,
  postChanged: posts.changed,
  postChangedById: posts.byId,
};

/** The compatible graph as the subscription transports serve it at its path: its schema and its rules. */
export function wpGraphqlLive(path: string, schema: GraphQLSchema): OtherGraph {
  return { path, schema, rules: wpGraphqlRules(), ruleCodes: [NOT_SERVED] };
}

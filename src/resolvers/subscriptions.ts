/**
 * The `Subscription` fields (schema/subscriptions.graphql, docs/subscriptions.md):
 * thin. `subscribe` compiles the filter (refusing what cannot be evaluated on
 * one object) and opens a subscription on the transport's live session
 * (src/subscriptions/); `resolve` turns each delivery into the change's model
 * and points the operation's context at the delivery's, whose credential and
 * loaders read the payload's fields (src/subscriptions/context.ts).
 */
import type { Context } from '../context.ts';
import { GatewayError } from '../errors.ts';
import type { EventChange, PostChange, SubscriptionResolvers } from '../generated/graphql.ts';
import { databaseIdOf, toGlobalId } from '../mapping/ids.ts';
import type { EventModel } from '../mapping/models.ts';
import type { PostModel } from '../mapping/platform-models.ts';
import { SubscriptionContext } from '../subscriptions/context.ts';
import { byId, eventFilter, postFilter } from '../subscriptions/filter.ts';
import type { Delivery } from '../subscriptions/hub.ts';

/** The operation's live session: only the SSE and WebSocket transports make one. */
function live(ctx: Context): SubscriptionContext {
  if (ctx instanceof SubscriptionContext) return ctx;
  throw new GatewayError(
    'OPERATION_NOT_SUPPORTED',
    'Subscriptions are served over GraphQL over SSE and WebSocket (graphql-transport-ws) on /graphql; see docs/subscriptions.md.',
  );
}

/** A delivery -> its change, the context switched to the delivery's. */
function delivered(payload: unknown, ctx: Context): Extract<Delivery, { change: unknown }> {
  const d = payload as Delivery | undefined;
  if (!d)
    throw new GatewayError('OPERATION_NOT_SUPPORTED', 'A subscription field resolves only for a change it was given.');
  if ('error' in d) throw d.error;
  live(ctx).use(d.context);
  return d;
}

type EventChangeModel = Omit<EventChange, 'event'> & { event: EventModel | null };
type PostChangeModel = Omit<PostChange, 'post'> & { post: PostModel | null };

function eventChange(payload: unknown, ctx: Context): EventChangeModel {
  const { change: c, model } = delivered(payload, ctx);
  return {
    kind: c.kind,
    event: model as EventModel | null,
    id: toGlobalId('Event', c.id),
    databaseId: c.id,
    at: c.at,
    source: c.source,
  };
}

function postChange(payload: unknown, ctx: Context): PostChangeModel {
  const { change: c, model } = delivered(payload, ctx);
  return {
    kind: c.kind,
    post: model as PostModel | null,
    id: toGlobalId('Post', c.id),
    databaseId: c.id,
    at: c.at,
    source: c.source,
  };
}

function idOf(id: string, type: 'Event' | 'Post'): number {
  const n = databaseIdOf(id, type);
  if (n === null)
    throw GatewayError.badInput(
      `id: ${JSON.stringify(id)} is neither a${type === 'Event' ? 'n Event' : ' Post'} global ID nor a positive database ID`,
      { arguments: ['id'] },
    );
  return n;
}

export const subscriptionResolvers: { Subscription: SubscriptionResolvers } = {
  Subscription: {
    eventChanged: {
      subscribe: (_p, args, ctx) => live(ctx).live.open('events', eventFilter(ctx.site, args.where), ctx),
      resolve: (payload: unknown, _a: unknown, ctx: Context) => eventChange(payload, ctx),
    },
    eventChangedById: {
      subscribe: (_p, args, ctx) => live(ctx).live.open('events', byId(idOf(args.id, 'Event')), ctx),
      resolve: (payload: unknown, _a: unknown, ctx: Context) => eventChange(payload, ctx),
    },
    postChanged: {
      subscribe: (_p, args, ctx) => live(ctx).live.open('posts', postFilter(ctx.site, args.where), ctx),
      resolve: (payload: unknown, _a: unknown, ctx: Context) => postChange(payload, ctx),
    },
    postChangedById: {
      subscribe: (_p, args, ctx) => live(ctx).live.open('posts', byId(idOf(args.id, 'Post')), ctx),
      resolve: (payload: unknown, _a: unknown, ctx: Context) => postChange(payload, ctx),
    },
  },
};

/**
 * The automation connectors (schema/automation.graphql): glue from
 * arguments to routes.ts and mapping.ts; hand-written for the token (an
 * argument, else a header) and for the written event primed into the loaders.
 *
 * A token is the `accessToken` argument, else the `X-Automation-Token`
 * header (docs/graph-extras.md). It is handed to the upstream module and nowhere
 * else: never logged, never part of an error (errors.ts redacts site messages).
 */
import type { Context } from '../../context.ts';
import type {
  AutomationAResolvers,
  AutomationBResolvers,
  MutationResolvers,
  QueryResolvers,
  Resolvers,
} from '../../generated/graphql.ts';
import { automationFeed, findEventsQuery, legacyEventPayload } from './mapping.ts';
import type { AutomationNamespaceModel } from '../../mapping/models.ts';
import { legacyEvent } from '../calendar/legacy-mapping.ts';
import { callRoute, resolversOf } from '../../routes/declare.ts';
import { API_DOCUMENT } from '../calendar-extras/routes.ts';
import {
  AUTOMATION_A_ROUTES,
  createEvent,
  feed,
  findEvents,
  updateEvent,
  type Connector,
  type FeedKind,
} from './routes.ts';
import { GatewayError } from '../../errors.ts';
import { missingObject } from '../../upstream/errors.ts';

/** The request header a token may come in when no argument gives one. */
export const AUTOMATION_TOKEN_HEADER = 'x-automation-token';

function tokenOf(ctx: Context, arg: string | null | undefined): string | undefined {
  return arg || ctx.header(AUTOMATION_TOKEN_HEADER) || undefined;
}

const feedField =
  (c: Connector, kind: FeedKind) =>
  async (_p: AutomationNamespaceModel, args: { accessToken?: string | null }, ctx: Context) => {
    const token = tokenOf(ctx, args.accessToken);
    // automation-a declares the token required on its feeds (spec F): without one the site
    // would only say `rest_missing_callback_param`; say what is missing, without a round trip.
    if (c === 'A' && !token) {
      throw GatewayError.unauthenticated(
        `automationA.${kind}Events needs an access token: the accessToken argument or the X-Automation-Token header.`,
        { arguments: ['accessToken'] },
      );
    }
    return automationFeed(await feed(ctx.upstream, c, kind, token));
  };

export const AutomationA: AutomationAResolvers = {
  ...resolversOf(AUTOMATION_A_ROUTES),
  doc: (_p, _a, ctx) => callRoute(ctx.upstream, API_DOCUMENT, { api: 'AUTOMATION_A' }),
  newEvents: feedField('A', 'new'),
  updatedEvents: feedField('A', 'updated'),
  canceledEvents: feedField('A', 'canceled'),
  findEvents: async (_p, args, ctx) => {
    return automationFeed(await findEvents(ctx.upstream, tokenOf(ctx, args.accessToken), findEventsQuery(args.where)));
  },
};

export const AutomationB: AutomationBResolvers = {
  doc: (_p, _a, ctx) => callRoute(ctx.upstream, API_DOCUMENT, { api: 'AUTOMATION_B' }),
  newEvents: feedField('B', 'new'),
  updatedEvents: feedField('B', 'updated'),
  canceledEvents: feedField('B', 'canceled'),
};

export const automationQuery: QueryResolvers = {
  automationA: () => ({ connector: 'A' }),
  automationB: () => ({ connector: 'B' }),
};

export const automationMutation: MutationResolvers = {
  automationACreateEvent: async (_p, args, ctx) => {
    const m = legacyEvent(
      await createEvent(ctx.upstream, 'A', tokenOf(ctx, args.accessToken), legacyEventPayload(args.input)),
    );
    ctx.loaders.prime(m);
    ctx.changes?.written('events', m.databaseId, 'CREATED', m);
    return m;
  },
  automationAUpdateEvent: async (_p, args, ctx) => {
    const payload: Record<string, unknown> = { ...legacyEventPayload(args.input), id: args.id };
    if (args.password != null) payload.password = args.password;
    if (args.eventStatus != null) payload.event_status = args.eventStatus.toLowerCase();
    // The route validates `id` as an argument: a missing event is a 400 rest_invalid_param naming it, here NOT_FOUND.
    const raw = await updateEvent(ctx.upstream, args.method ?? 'POST', tokenOf(ctx, args.accessToken), payload).catch(
      (err: unknown) => {
        throw missingObject(err, { argument: 'id', param: 'id', label: 'event', id: args.id });
      },
    );
    const m = legacyEvent(raw);
    ctx.loaders.prime(m);
    ctx.changes?.written('events', m.databaseId, args.eventStatus === 'CANCELED' ? 'CANCELED' : 'UPDATED', m);
    return m;
  },
  automationBCreateEvent: async (_p, args, ctx) => {
    const m = legacyEvent(
      await createEvent(ctx.upstream, 'B', tokenOf(ctx, args.accessToken), legacyEventPayload(args.input)),
    );
    ctx.loaders.prime(m);
    ctx.changes?.written('events', m.databaseId, 'CREATED', m);
    return m;
  },
};

export const automationResolvers: Resolvers = {
  Query: automationQuery,
  Mutation: automationMutation,
  AutomationA,
  AutomationB,
};

/**
 * The automation connectors (schema/automation.graphql): thin glue from
 * arguments to upstream/calendar-extras.ts and mapping/automation.ts.
 *
 * A token is the `accessToken` argument, else the `X-Automation-Token`
 * header (../shared/DESIGN.md "Auth"). It is handed to the upstream module and nowhere
 * else: never logged, never part of an error (errors.ts redacts site messages).
 */
import type { Context } from '../context.ts';
import type { AutomationAResolvers, AutomationBResolvers, MutationResolvers, QueryResolvers } from '../generated/graphql.ts';
import { accessTokenOf, automationFeed, findEventsQuery, legacyEventPayload } from '../mapping/automation.ts';
import type { AutomationNamespaceModel } from '../mapping/models.ts';
import { legacyEvent } from '../mapping/legacy.ts';
import {
  apiDocument, authorizeA, createEvent, feed, findEvents, updateEvent,
  type Connector, type FeedKind,
} from '../upstream/calendar-extras.ts';
import { GatewayError } from '../errors.ts';

/** The request header a token may come in when no argument gives one. */
export const AUTOMATION_TOKEN_HEADER = 'x-automation-token';

function tokenOf(ctx: Context, arg: string | null | undefined): string | undefined {
  return arg || ctx.header(AUTOMATION_TOKEN_HEADER) || undefined;
}

const feedField = (c: Connector, kind: FeedKind) => async (_p: AutomationNamespaceModel, args: { accessToken?: string | null }, ctx: Context) => {
  const token = tokenOf(ctx, args.accessToken);
  // automation-a declares the token required on its feeds (spec F): without one the site
  // would only say `rest_missing_callback_param`; say what is missing, without a round trip.
  if (c === 'A' && !token) {
    throw GatewayError.unauthenticated(`automationA.${kind}Events needs an access token: the accessToken argument or the X-Automation-Token header.`, { arguments: ['accessToken'] });
  }
  return automationFeed(await feed(ctx.upstream, c, kind, token));
};

export const AutomationA: AutomationAResolvers = {
  doc: async (_p, _a, ctx) => {
    return apiDocument(ctx.upstream, 'AUTOMATION_A');
  },
  authorize: async (_p, args, ctx) => {
    const body = await authorizeA(ctx.upstream, args.consumerId, args.consumerSecret, args.appName ?? undefined);
    const accessToken = accessTokenOf(body);
    if (!accessToken) throw new GatewayError('UPSTREAM_BAD_RESPONSE', 'Bad upstream response (GET /calendar/automation-a/v1/authorize): no access_token.');
    return { accessToken };
  },
  newEvents: feedField('A', 'new'),
  updatedEvents: feedField('A', 'updated'),
  canceledEvents: feedField('A', 'canceled'),
  findEvents: async (_p, args, ctx) => {
    return automationFeed(await findEvents(ctx.upstream, tokenOf(ctx, args.accessToken), findEventsQuery(args.where)));
  },
};

export const AutomationB: AutomationBResolvers = {
  doc: async (_p, _a, ctx) => {
    return apiDocument(ctx.upstream, 'AUTOMATION_B');
  },
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
    const m = legacyEvent(await createEvent(ctx.upstream, 'A', tokenOf(ctx, args.accessToken), legacyEventPayload(args.input)));
    ctx.loaders.prime(m);
    ctx.changes?.written('events', m.databaseId, 'CREATED', m);
    return m;
  },
  automationAUpdateEvent: async (_p, args, ctx) => {
    const payload: Record<string, unknown> = { ...legacyEventPayload(args.input), id: args.id };
    if (args.password != null) payload.password = args.password;
    if (args.eventStatus != null) payload.event_status = args.eventStatus.toLowerCase();
    const m = legacyEvent(await updateEvent(ctx.upstream, args.method ?? 'POST', tokenOf(ctx, args.accessToken), payload));
    ctx.loaders.prime(m);
    ctx.changes?.written('events', m.databaseId, args.eventStatus === 'CANCELED' ? 'CANCELED' : 'UPDATED', m);
    return m;
  },
  automationBCreateEvent: async (_p, args, ctx) => {
    const m = legacyEvent(await createEvent(ctx.upstream, 'B', tokenOf(ctx, args.accessToken), legacyEventPayload(args.input)));
    ctx.loaders.prime(m);
    ctx.changes?.written('events', m.databaseId, 'CREATED', m);
    return m;
  },
};

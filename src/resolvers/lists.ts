/**
 * The list resolvers' common path: plan (which interface, which query) ->
 * page fetcher -> window -> models, primed into the loaders.
 */
import type { Context } from '../context.ts';
import type { PagingArgs } from '../loaders/window.ts';
import { coreEvent, coreOrganizer, coreSeries, coreVenue } from '../mapping/core.ts';
import { legacyEvent, legacyOrganizer, legacyTerm, legacyVenue } from '../mapping/legacy.ts';
import type { ConnectionModel, EventModel, OrganizerModel, SeriesModel, TermModel, VenueModel } from '../mapping/models.ts';
import { planEvents, planPlaces, planSeries, planTerms } from '../mapping/where.ts';
import { CORE_MAX_PER_PAGE, coreList } from '../upstream/calendarCore.ts';
import { LEGACY_MAX_PER_PAGE, legacyList } from '../upstream/calendarLegacy.ts';
import { connection } from './connection.ts';

type Where = Record<string, unknown>;
type OrderBy = { field: string; direction?: string | null } | null | undefined;
export interface ListArgs extends PagingArgs {
  where?: Where | null;
  orderBy?: OrderBy;
}

export function eventsConnection(ctx: Context, args: ListArgs, pinned: Where = {}): Promise<ConnectionModel<EventModel>> {
  const plan = planEvents(ctx.site, { ...(args.where ?? {}), ...pinned }, args.orderBy);
  const legacy = plan.iface === 'legacy';
  return connection(
    ctx,
    args,
    (page, per) => (legacy ? legacyList(ctx.upstream, 'events', plan.query, page, per) : coreList(ctx.upstream, 'events', plan.query, page, per)),
    legacy ? LEGACY_MAX_PER_PAGE : CORE_MAX_PER_PAGE,
    (raw) => {
      const m = legacy ? legacyEvent(raw) : coreEvent(raw);
      ctx.loaders.prime(m);
      return m;
    },
  );
}

export function placesConnection<K extends 'venues' | 'organizers'>(
  ctx: Context,
  kind: K,
  args: ListArgs,
): Promise<ConnectionModel<K extends 'venues' ? VenueModel : OrganizerModel>> {
  const plan = planPlaces(ctx.site, kind, args.where ?? {});
  const legacy = plan.iface === 'legacy';
  const map = kind === 'venues' ? (legacy ? legacyVenue : coreVenue) : legacy ? legacyOrganizer : coreOrganizer;
  return connection(
    ctx,
    args,
    (page, per) => (legacy ? legacyList(ctx.upstream, kind, plan.query, page, per) : coreList(ctx.upstream, kind, plan.query, page, per)),
    legacy ? LEGACY_MAX_PER_PAGE : CORE_MAX_PER_PAGE,
    (raw) => {
      const m = map(raw);
      ctx.loaders.prime(m);
      return m as K extends 'venues' ? VenueModel : OrganizerModel;
    },
  );
}

export function termsConnection(ctx: Context, kind: 'categories' | 'tags', args: ListArgs, pinned: Where = {}): Promise<ConnectionModel<TermModel>> {
  const plan = planTerms(ctx.site, kind, { ...(args.where ?? {}), ...pinned }, args.orderBy);
  return connection(ctx, args, (page, per) => legacyList(ctx.upstream, kind, plan.query, page, per), LEGACY_MAX_PER_PAGE, (raw) => {
    const t = legacyTerm(raw, kind === 'categories' ? 'Category' : 'Tag');
    ctx.loaders.prime(t);
    return t;
  });
}

export function seriesConnection(ctx: Context, args: ListArgs): Promise<ConnectionModel<SeriesModel>> {
  const plan = planSeries(ctx.site, args.where ?? {}, args.orderBy);
  return connection(ctx, args, (page, per) => coreList(ctx.upstream, 'series', plan.query, page, per), CORE_MAX_PER_PAGE, coreSeries);
}

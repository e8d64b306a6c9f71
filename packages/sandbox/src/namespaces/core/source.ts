/**
 * The per-request `ReprSource` the core builders read through: the store, the
 * site's clock and zone, and the caller (embedded venues and organizers are
 * the ones the caller may read).
 */
import { can } from '../../auth.ts';
import type { ReprSource } from '../../calendar/core-repr.ts';
import {
  EVENT,
  ORGANIZER,
  VENUE,
  canRead,
  type EventMeta,
  type OrganizerPost,
  type VenuePost,
} from '../../calendar/model.ts';
import { sortPosts } from '../../calendar/query.ts';
import { coreCategoryField } from '../../names.ts';
import type { RestRequest } from '../../rest/types.ts';
import type { PostRow, PostType } from '../../store/db.ts';

export function reprSource(req: RestRequest): ReprSource {
  const { site, user } = req;
  const { store } = site;
  const readable = <M>(ids: readonly number[], type: PostType): PostRow<M>[] =>
    store.postsByIds<M>(ids).filter((p) => p.type === type && canRead(p, user, (cap) => can(user, cap)));
  return {
    origin: site.origin,
    categoryField: coreCategoryField(site.options.names),
    siteTimezone: site.timezone,
    now: site.now(),
    terms: (postId, taxonomy) => store.termIdsOf(postId, taxonomy).map((id) => store.term(id)!),
    venues: (ids) => readable<VenuePost['meta']>(ids, VENUE),
    organizers: (ids) => readable<OrganizerPost['meta']>(ids, ORGANIZER),
    seriesEventIds: (seriesId) => {
      const members = store
        .posts<EventMeta>(EVENT)
        .filter(
          (e) => e.meta.seriesId === seriesId && e.status !== 'trash' && canRead(e, user, (cap) => can(user, cap)),
        );
      return sortPosts(members, 'event_date', 'ASC').map((e) => e.id);
    },
  };
}

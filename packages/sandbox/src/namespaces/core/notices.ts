/**
 * `GET|DELETE /calendar-core/v1/events/<id>/notices/occurrences` (ECP
 * Custom_Tables/V1/REST/V1/Notices.php; calendar-upstream.md §2 "ECP routes").
 *
 * A notice is left when an event of a series is changed through this
 * interface, telling the editor that its occurrences follow. Reading it
 * deletes it: GET answers `[]` or `["<JSON-encoded notice>"]`; DELETE answers
 * 204 with no body. A signed-in user is required; the ID must be an event
 * (checked as an argument, so a bad ID is a 400 even for anonymous callers).
 * The notice text itself is unconfirmed upstream (§7); ours is a JSON string
 * `{"type":"occurrences","message":…}`. Not experimental, not batchable.
 */
import { EVENT } from '../../calendar/model.ts';
import { RestResult, type ArgSchema, type RouteDecl } from '../../rest/types.ts';
import type { Storage } from '../../capabilities.ts';
import { NS } from './entity.ts';

/** Store option holding pending notices, keyed by event ID. */
export const NOTICES_OPTION = 'calendar_core_occurrence_notices';

type Notices = Record<string, string>;

export function leaveOccurrenceNotice(site: Storage, eventId: number): void {
  const all = site.store.option<Notices>(NOTICES_OPTION, {});
  all[eventId] = JSON.stringify({
    type: 'occurrences',
    message: 'This event is part of a series: the change was saved and the occurrences of the series were updated.',
  });
  site.store.setOption(NOTICES_OPTION, all);
}

/** Removes and returns the notice of an event, if any. */
export function takeOccurrenceNotice(site: Storage, eventId: number): string | undefined {
  const all = site.store.option<Notices>(NOTICES_OPTION, {});
  const notice = all[eventId];
  if (notice !== undefined) {
    delete all[eventId];
    site.store.setOption(NOTICES_OPTION, all);
  }
  return notice;
}

export function noticeRoutes(site: Storage): RouteDecl[] {
  const id: ArgSchema = {
    type: 'integer',
    required: true,
    description: 'The event ID.',
    validate: (v) => site.store.post(Number(v))?.type === EVENT,
  };
  return [
    {
      namespace: NS,
      path: `/${NS}/events/(?P<id>\\d+)/notices/occurrences`,
      endpoints: [
        {
          methods: ['GET'],
          summary: 'Read (and clear) the occurrences notice of an event',
          args: { id },
          permission: (req) => req.user !== null,
          handler: (req) => {
            const notice = takeOccurrenceNotice(site, req.params.id as number);
            return notice === undefined ? [] : [notice];
          },
        },
        {
          methods: ['DELETE'],
          summary: 'Clear the occurrences notice of an event',
          args: { id },
          permission: (req) => req.user !== null,
          handler: (req) => {
            takeOccurrenceNotice(site, req.params.id as number);
            return new RestResult(null, 204);
          },
        },
      ],
    },
  ];
}

/**
 * The calendar's rows of the route table (`npm run routes`): each route the
 * calendar's request builders make, with the fields that reach it. The path
 * of a row is the route label of the request the builder makes (`calendarGet`,
 * `writeRequest`), so a row and its request cannot disagree; its fields are
 * schema coordinates the compiler checks (src/routes/route-use.ts), argument
 * values included.
 *
 * Apart from the request modules: the checked types name the generated ones,
 * which name the context, so this module must not be reachable from the
 * loaders or the session (src/routes/route-use.ts); only the route table
 * imports it.
 */
import { rowOf, use, type FieldUse, type Method, type RouteUse } from '../../routes/route-use.ts';
import { calendarGet, type Target } from './paths.ts';
import { writeRequest, type WriteMethod } from './write-requests.ts';
import { TYPE_OF, type Iface, type Kind, type PostKind, type TermKind } from './vocabulary.ts';
import { BATCH } from '../../upstream/batch.ts';

const ID: Target = { id: 0 };
const SLUG: Target = { slug: '' };

/** A row: the route as `request` labels it (`GET /calendar-core/v1/events/<id>`), and its fields. */
function row(route: string, fields: readonly FieldUse[]): RouteUse {
  const space = route.indexOf(' ');
  return {
    method: route.slice(0, space) as Method,
    path: route.slice(space + 1),
    field: fields.length === 1 ? fields[0]! : fields,
  };
}

const read = (iface: Iface, kind: Kind, target: Target | null, ...fields: FieldUse[]) =>
  row(calendarGet(iface, kind, target).route, fields);
const write = (
  iface: Iface,
  kind: PostKind | TermKind,
  method: WriteMethod,
  target: Target | null,
  ...fields: FieldUse[]
) => row(writeRequest(iface, kind, method, target).route, fields);

const NO_CORE = 'sites without calendar-core/v1';

/** calendar-core/v1's reads (core-requests.ts). */
export const CORE_READ_ROUTES: RouteUse[] = [
  read(
    'core',
    'events',
    null,
    'Query.events',
    'Venue.events',
    'Organizer.events',
    'Category.events',
    'Tag.events',
    'Series.events',
  ),
  read(
    'core',
    'events',
    ID,
    use('Event.virtual', { note: 'and the other fields only calendar-core serves' }),
    use('Query.event', { note: 'sites without the legacy interface' }),
  ),
  read('core', 'venues', null, 'Query.venues'),
  read('core', 'venues', ID, 'Query.venue'),
  read('core', 'organizers', null, 'Query.organizers'),
  read('core', 'organizers', ID, 'Query.organizer'),
  read('core', 'series', null, 'Query.series', 'Event.series'),
];

/** The legacy interface's reads (legacy-requests.ts). */
export const LEGACY_READ_ROUTES: RouteUse[] = [
  read(
    'legacy',
    'events',
    null,
    use('Query.events', { note: 'legacy-only filters' }),
    use('Query.event', { note: 'batched by include' }),
    use('Event.website', { note: 'and the other legacy-only fields' }),
  ),
  read('legacy', 'events', ID, 'Event.jsonLd'),
  read('legacy', 'events', SLUG, use('Query.event', { args: { idType: 'SLUG' } })),
  read('legacy', 'venues', null, use('Query.venues', { note: NO_CORE })),
  read('legacy', 'venues', ID, use('Venue.showMap', { note: 'and the other legacy-only venue fields' })),
  read('legacy', 'venues', SLUG, use('Query.venue', { args: { idType: 'SLUG' } })),
  read('legacy', 'organizers', null, use('Query.organizers', { note: NO_CORE })),
  read('legacy', 'organizers', ID, use('Query.organizer', { note: NO_CORE })),
  read('legacy', 'organizers', SLUG, use('Query.organizer', { args: { idType: 'SLUG' } })),
  read('legacy', 'categories', null, 'Query.categories', 'Event.categories'),
  read('legacy', 'tags', null, 'Query.tags', 'Event.tags'),
  read('legacy', 'categories', ID, 'Query.category'),
  read('legacy', 'tags', ID, 'Query.tag'),
];

/** The writes of one post kind through both interfaces. */
function postWrites(kind: PostKind): RouteUse[] {
  const T = TYPE_OF[kind];
  const create = `Mutation.create${T}` as const;
  const update = `Mutation.update${T}` as const;
  const del = `Mutation.delete${T}` as const;
  const creates = `Mutation.create${T}s` as const;
  const updates = `Mutation.update${T}s` as const;
  const deletes = `Mutation.delete${T}s` as const;
  const LEGACY = { via: 'LEGACY' } as const;
  return [
    write(
      'legacy',
      kind,
      'POST',
      null,
      use(create, { args: LEGACY }),
      use(creates, { note: NO_CORE }),
      ...(kind === 'events' ? [use(create, { note: 'EventInput.venue and organizers, follow-up' })] : []),
    ),
    write(
      'legacy',
      kind,
      'POST',
      ID,
      use(update, { args: { method: 'POST' } }),
      use(create, { note: 'legacy-only fields, follow-up' }),
      use(update, { note: 'legacy-only fields, follow-up' }),
    ),
    write(
      'legacy',
      kind,
      'PUT',
      ID,
      use(update, { args: { ...LEGACY, method: 'PUT' } }),
      use(updates, { args: { ...LEGACY, method: 'PUT' } }),
    ),
    write('legacy', kind, 'PATCH', ID, use(update, { args: LEGACY }), use(updates, { args: LEGACY })),
    write('legacy', kind, 'DELETE', ID, use(del, { args: LEGACY }), use(deletes, { note: NO_CORE })),
    write('legacy', kind, 'POST', SLUG, use(update, { args: { idType: 'SLUG', method: 'POST' } })),
    write('legacy', kind, 'PUT', SLUG, use(update, { args: { idType: 'SLUG', method: 'PUT' } })),
    write('legacy', kind, 'PATCH', SLUG, use(update, { args: { idType: 'SLUG' } })),
    write('legacy', kind, 'DELETE', SLUG, use(del, { args: { idType: 'SLUG' } })),
    write('core', kind, 'POST', null, create, creates),
    write('core', kind, 'PUT', ID, use(update, { args: { method: 'PUT' } }), use(updates, { args: { method: 'PUT' } })),
    write(
      'core',
      kind,
      'PATCH',
      ID,
      update,
      updates,
      use(update, { args: LEGACY, note: 'core-only fields, follow-up' }),
    ),
    write('core', kind, 'DELETE', ID, del, deletes),
  ];
}

/** The writes of one term kind (legacy only). */
function termWrites(kind: TermKind, T: 'Category' | 'Tag'): RouteUse[] {
  const update = `Mutation.update${T}` as const;
  return [
    write('legacy', kind, 'POST', null, `Mutation.create${T}`),
    write('legacy', kind, 'POST', ID, use(update, { args: { method: 'POST' } })),
    write('legacy', kind, 'PUT', ID, use(update, { args: { method: 'PUT' } })),
    write('legacy', kind, 'PATCH', ID, update),
    write('legacy', kind, 'DELETE', ID, `Mutation.delete${T}`),
  ];
}

/** Every calendar write route of the spec (write-requests.ts), and the mutations that reach it. */
export const WRITE_ROUTES: RouteUse[] = [
  ...postWrites('events'),
  ...postWrites('venues'),
  ...postWrites('organizers'),
  ...termWrites('categories', 'Category'),
  ...termWrites('tags', 'Tag'),
  rowOf(BATCH, [
    ...(['Event', 'Venue', 'Organizer'] as const).flatMap(
      (T) => [`Mutation.create${T}s`, `Mutation.update${T}s`, `Mutation.delete${T}s`] as const,
    ),
    use('Mutation.updateEvent', { note: 'follow-ups of single writes' }),
  ]),
];

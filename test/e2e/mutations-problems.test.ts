/**
 * Every problem of an item is reported (issue 13): the gateway checks an
 * input completely before anything is sent, and `MutationError` (one object
 * per item) lists each problem in its message, with its path, the error's
 * path being the part the problems' paths share. A single mutation's
 * GraphQL error also lists them in `extensions.problems` and names each
 * argument in `extensions.arguments`. One problem reads as before.
 * Nothing more is sent upstream for it: items with problems send nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';
import { restClient, type RestClient } from '../helpers/sandbox.ts';

const CREATE_EVENTS = `mutation($inputs: [EventInput!]!) {
  createEvents(inputs: $inputs) { written failed unknown results { index databaseId error { code message path upstream } event { title } } }
}`;
const UPDATE_EVENTS = `mutation($inputs: [EventUpdateInput!]!) {
  updateEvents(inputs: $inputs) { written failed results { index databaseId error { code message path upstream } event { title } } }
}`;

const when = { startDate: '2032-04-02T18:00:00+02:00', endDate: '2032-04-02T20:00:00+02:00', timezone: 'Europe/Paris' };
const writesOf = (h: Harness) => h.calls().filter((c) => c.method !== 'GET');

describe('every problem of an item is reported', () => {
  let h: Harness;
  let rest: RestClient;
  beforeAll(async () => {
    h = await startHarness();
    rest = restClient(h.sandbox);
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it('createEvents: an item with three problems lists all three; one problem reads as before; the valid item alone is sent', async () => {
    const inputs = [
      { ...when, duration: -5, website: 'not a url' },
      { ...when, title: 'Fine' },
      { ...when, title: 'Only one', cost: 'x'.repeat(300) },
    ];
    const r = await h.gql(CREATE_EVENTS, { inputs }, 'admin');
    expect(r.errors).toBeUndefined();
    const p = r.data.createEvents;
    expect(p).toMatchObject({ written: 1, failed: 2, unknown: 0 });
    expect(p.results[0].error).toEqual({
      code: 'BAD_USER_INPUT',
      path: ['inputs', '0'],
      upstream: null,
      message:
        '3 problems: (1) inputs.0.title: title is required to create. (2) inputs.0.duration: duration must be 0 or more seconds. ' +
        '(3) inputs.0.website: website must be an absolute http(s) URL.',
    });
    expect(p.results[2].error).toEqual({
      code: 'BAD_USER_INPUT',
      path: ['inputs', '2', 'cost'],
      upstream: null,
      message: 'cost is longer than 255 characters.',
    });
    expect(p.results[1]).toMatchObject({ error: null, event: { title: 'Fine' } });
    expect(writesOf(h).map((c) => `${c.method} ${c.path}`)).toEqual(['POST /calendar-core/v1/events']);
  });

  it('missing references in several fields: each is named, still one read per kind', async () => {
    const hall = (await rest.send('POST', '/calendar/events/v1/venues', { venue: 'Problem hall' }, 'admin')).body.id;
    h.mark();
    const inputs = [
      { ...when, title: 'Two missing', venueIds: [999991], organizerIds: [999992] },
      { ...when, title: 'Known hall', venueIds: [hall] },
    ];
    const p = (await h.gql(CREATE_EVENTS, { inputs }, 'admin')).data.createEvents;
    expect(p).toMatchObject({ written: 1, failed: 1 });
    const e = p.results[0].error;
    expect(e).toMatchObject({ code: 'BAD_USER_INPUT', path: ['inputs', '0'], upstream: null });
    expect(e.message).toMatch(
      /^2 problems: \(1\) inputs\.0\.venueIds: venueIds: no venue with ID 999991 .*\(2\) inputs\.0\.organizerIds: organizerIds: no organizer with ID 999992 /,
    );
    const reads = h
      .calls()
      .filter((c) => c.method === 'GET')
      .map((c) => c.path)
      .sort();
    expect(reads).toEqual(
      [
        '/calendar-core/v1/organizers/999992',
        `/calendar-core/v1/venues/${hall}`,
        '/calendar-core/v1/venues/999991',
      ].sort(),
    );
    expect(writesOf(h)).toHaveLength(1);
  });

  it('updateEvents: a bad ID and a bad input, or a repeated ID and a bad input, are reported together; nothing is sent', async () => {
    const made = (await h.gql(CREATE_EVENTS, { inputs: [{ ...when, title: 'To update' }] }, 'admin')).data.createEvents
      .results[0].databaseId;
    h.mark();
    const inputs = [
      { id: 'nope', input: { duration: -1 } },
      { id: String(made), input: { title: 'Renamed' } },
      { id: String(made), input: { status: 'TRASH' } },
    ];
    // The first two items are fine to send alone, but the third repeats an ID: only it is refused.
    const p = (await h.gql(UPDATE_EVENTS, { inputs }, 'admin')).data.updateEvents;
    expect(p.results[0].error).toEqual({
      code: 'BAD_USER_INPUT',
      path: ['inputs', '0'],
      upstream: null,
      message:
        '2 problems: (1) inputs.0.id: "nope" is not a Event ID (a global ID or a database ID). (2) inputs.0.input.duration: duration must be 0 or more seconds.',
    });
    expect(p.results[2].error.path).toEqual(['inputs', '2']);
    expect(p.results[2].error.message).toMatch(
      /^2 problems: \(1\) inputs\.2\.id: Event \d+ is already updated by inputs\.1: .*\(2\) inputs\.2\.input\.status: status must be one of /,
    );
    expect(p.results[1]).toMatchObject({ error: null, event: { title: 'Renamed' } });
    expect(p).toMatchObject({ written: 1, failed: 2 });
    expect(writesOf(h).map((c) => `${c.method} ${c.path}`)).toEqual([`PATCH /calendar-core/v1/events/${made}`]);
  });

  it('createEvent: a GraphQL error listing every problem in extensions, and nothing sent upstream', async () => {
    const r = await h.gql(
      `mutation($i: EventInput!) { createEvent(input: $i) { event { databaseId } } }`,
      { i: { ...when, endDate: undefined, featuredImageId: 4, featuredImageUrl: 'https://example.org/a.png' } },
      'admin',
    );
    expect(r.data?.createEvent ?? null).toBeNull();
    const e = r.errors![0]!;
    expect(e.message).toBe(
      '3 problems: (1) input.title: title is required to create. (2) input.endDate: endDate is required to create. (3) input.featuredImageUrl: give featuredImageId or featuredImageUrl, not both.',
    );
    expect(e.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      arguments: ['input.title', 'input.endDate', 'input.featuredImageUrl'],
      problems: [
        { path: ['input', 'title'], message: 'title is required to create.' },
        { path: ['input', 'endDate'], message: 'endDate is required to create.' },
        { path: ['input', 'featuredImageUrl'], message: 'give featuredImageId or featuredImageUrl, not both.' },
      ],
    });
    expect(h.calls()).toEqual([]);
  });

  it('createEvent with one problem: the error as before (one argument, no problems list)', async () => {
    const r = await h.gql(
      `mutation($i: EventInput!) { createEvent(input: $i) { event { databaseId } } }`,
      { i: { ...when } },
      'admin',
    );
    expect(r.errors![0]!.message).toBe('title is required to create.');
    expect(r.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['input.title'] });
    expect(r.errors![0]!.extensions).not.toHaveProperty('problems');
    expect(h.calls()).toEqual([]);
  });

  it('createCategory: every problem of the term input', async () => {
    const r = await h.gql(
      `mutation($i: CategoryInput!) { createCategory(input: $i) { category { databaseId } } }`,
      { i: { description: 'No name', parentId: -2 } },
      'admin',
    );
    expect(r.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      arguments: ['input.name', 'input.parentId'],
    });
    expect(r.errors![0]!.message).toBe(
      '2 problems: (1) input.name: name is required to create. (2) input.parentId: parentId must be a category ID (0 for top level).',
    );
    expect(h.calls()).toEqual([]);
  });
});

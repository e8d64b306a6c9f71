/**
 * Either name for every namespace, end to end (docs/real-sites.md, "Namespace
 * names"): the gateway over three sandboxes that differ only in the names they
 * serve (`names: 'spec'`, `'plugin'`: `tribe/events/v1`, `tec/v1`, `yoast/v1`,
 * `wp/v2`, ... as an unmodified site; `'both'`: an alias plugin) answers every
 * query the same, sends the same requests in the spec's terms, and every
 * request the sandbox received used a name its root index advertised.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../packages/sandbox/src/requestlog.ts';
import { extrasCredentials } from '../../packages/sandbox/src/namespaces/extras/index.ts';
import { NAMESPACE_RENAMES, toSpecPath } from '../../src/upstream/names.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';
import type { Who } from '../helpers/sandbox.ts';

const NAMES = ['spec', 'plugin', 'both'] as const;
type Names = (typeof NAMES)[number];

/** The same site three times: a fixed day, seed and release (6.17 declares every filter the queries use). */
const SANDBOX = { anchor: '2026-11-25', now: '2026-11-25T12:00:00Z', tec: '6.17', calendarBatchable: true } as const;

const harness = {} as Record<Names, Harness>;
/** Each sandbox's root index as it serves it: the namespaces and route patterns it advertises. */
const advertised = {} as Record<Names, { namespaces: string[]; routes: string[] }>;

beforeAll(async () => {
  await Promise.all(
    NAMES.map(async (names) => {
      const h = await startHarness({ sandbox: { ...SANDBOX, names } });
      harness[names] = h;
      const index = (await (await fetch(h.sandbox.url)).json()) as {
        namespaces: string[];
        routes: Record<string, unknown>;
      };
      advertised[names] = { namespaces: index.namespaces, routes: Object.keys(index.routes) };
    }),
  );
});
afterAll(() => Promise.all(NAMES.map((n) => harness[n]?.close())));

/** Where each sandbox's log stood before the query being run. */
const marks = {} as Record<Names, number>;

/** Every request (and /batch/v1 item) a sandbox received since its mark, as it received them (the site's names). */
function requests(names: Names): { method: string; path: string; route?: string; status: number }[] {
  return harness[names].sandbox.log.entries
    .slice(marks[names])
    .flatMap((c: LogEntry) => [
      { method: c.method, path: c.path, route: c.route, status: c.status },
      ...(c.batch ?? []),
    ]);
}

/** Whether the path is under a namespace the index lists (or is the index or /batch/v1 itself). */
function advertisedPath(names: Names, path: string): boolean {
  const p = path.split('?')[0]!;
  return (
    p === '/' || p === '/batch/v1' || advertised[names].namespaces.some((n) => p === `/${n}` || p.startsWith(`/${n}/`))
  );
}

interface Run {
  data: unknown;
  errors: unknown;
  /** The requests it sent, in the spec's names, sorted. */
  sent: string[];
}

/**
 * Runs `query` on all three gateways; checks that each request reached a route
 * the sandbox serves under a name its index advertises; returns the three runs.
 */
async function everywhere(
  query: string,
  variables: (names: Names) => Promise<Record<string, unknown>> | Record<string, unknown> = () => ({}),
  who: Who = null,
): Promise<Record<Names, Run>> {
  const out = {} as Record<Names, Run>;
  for (const names of NAMES) {
    const h = harness[names];
    const vars = await variables(names);
    marks[names] = h.sandbox.log.entries.length;
    const r = await h.gql(query, vars, who);
    const sent = requests(names);
    for (const s of sent) {
      expect(
        advertisedPath(names, s.path),
        `${names}: ${s.method} ${s.path} is under a namespace the index lists`,
      ).toBe(true);
      // A matched route: the sandbox knew the path under the name it was sent by.
      expect(s.route, `${names}: ${s.method} ${s.path} matched a route`).toBeDefined();
      if (names === 'plugin') expect(s.path, 'keyword research under Yoast’s own name').not.toMatch(/keyword_research/);
      if (names === 'both') expect(toSpecPath(s.path), `${names}: the spec's name is preferred`).toBe(s.path);
    }
    out[names] = {
      data: r.data,
      errors: r.errors,
      sent: sent.map((s) => `${s.method} ${toSpecPath(s.path.split('?')[0]!)}`).sort(),
    };
  }
  return out;
}

/** The three runs answered the same, without errors, through the same requests in the spec's terms. */
function same(runs: Record<Names, Run>, pick: (data: any) => unknown = (d) => d): unknown {
  for (const names of NAMES) expect(runs[names].errors, names).toBeUndefined();
  expect(pick(runs.plugin.data), 'plugin names').toEqual(pick(runs.spec.data));
  expect(pick(runs.both.data), 'both names').toEqual(pick(runs.spec.data));
  expect(runs.plugin.sent, 'plugin names: the same requests').toEqual(runs.spec.sent);
  expect(runs.both.sent, 'both names: the same requests').toEqual(runs.spec.sent);
  expect(runs.spec.sent.length).toBeGreaterThan(0);
  return pick(runs.spec.data);
}

const nonce = async (h: Harness, action: string, who: Who = null) =>
  (
    await fetch(`${h.sandbox.origin}/__sandbox/nonce?action=${action}`, {
      headers: who ? { authorization: h.auth(who) } : {},
    })
  ).text();

describe('the sandboxes serve the names asked for', () => {
  it('plugin: the plugins’ names only; both: each renamed namespace twice', () => {
    expect(advertised.spec.namespaces).toEqual(
      expect.arrayContaining(['calendar/events/v1', 'calendar-core/v1', 'seo/v1', 'core/v2']),
    );
    expect(advertised.plugin.namespaces).toEqual(
      expect.arrayContaining([
        'tribe/events/v1',
        'tec/v1',
        'yoast/v1',
        'wp/v2',
        'tribe/views/v2',
        'tribe/event-aggregator/v1',
        'tec/v2/onboarding',
      ]),
    );
    expect(advertised.plugin.namespaces).not.toContain('calendar/events/v1');
    expect(advertised.plugin.routes).toContain('/yoast/v1/semrush/related_keyphrases');
    expect(advertised.both.namespaces).toEqual(
      expect.arrayContaining(['tribe/events/v1', 'calendar/events/v1', 'wp/v2', 'core/v2']),
    );
  });

  it('the gateway discovered them: each namespace under the name the index lists', () => {
    expect(harness.spec.gateway.site.known!.names.rewrites).toEqual([]);
    const served = NAMESPACE_RENAMES.filter((n) => advertised.plugin.namespaces.includes(n.plugin));
    expect(served.map((n) => n.spec)).toEqual(
      expect.arrayContaining([
        'calendar/events/v1',
        'calendar-core/v1',
        'seo/v1',
        'core/v2',
        'calendar/views/v2',
        'calendar/aggregator/v1',
        'calendar-core/v2/onboarding',
      ]),
    );
    expect(harness.plugin.gateway.site.known!.names.namespaces).toEqual(
      Object.fromEntries(served.map((n) => [n.spec, n.plugin])),
    );
    expect(harness.plugin.gateway.site.known!.names.routes).toMatchObject({
      'seo/v1/keyword_research': 'seo/v1/semrush',
    });
    expect(harness.both.gateway.site.known!.names.namespaces).toEqual({});
  });
});

describe('the same graph under every name', () => {
  it('the site and its namespaces, in the spec’s names', async () => {
    const runs = await everywhere(
      `{ site { namespaces calendarInterface maxBatchSize } namespaces { name available routes { pattern methods batchMethods } } }`,
    );
    // The root index is read at start: nothing is sent for these.
    for (const names of NAMES) expect(runs[names].errors).toBeUndefined();
    expect(runs.plugin.data).toEqual(runs.spec.data);
    expect(runs.both.data).toEqual(runs.spec.data);
  });

  it('a namespace index (GET /calendar/events/v1, sent as GET /tribe/events/v1)', async () => {
    const d = same(
      await everywhere(`{ namespace(name: "calendar/events/v1") { available routes { pattern methods } } }`),
    ) as any;
    expect(d.namespace.routes.map((r: any) => r.pattern)).toContain('/calendar/events/v1/events');
  });

  it('a namespace asked for by the plugin’s own name is the same namespace', async () => {
    const bySpec = same(
      await everywhere(`{ namespace(name: "calendar/events/v1") { name available routes { pattern } } }`),
    ) as any;
    const byPlugin = same(
      await everywhere(`{ namespace(name: "tribe/events/v1") { name available routes { pattern } } }`),
    ) as any;
    expect(byPlugin).toEqual(bySpec);
  });

  it('events through the legacy list, with venues, organizers and categories', async () => {
    const d = same(
      await everywhere(
        `{ events(first: 10) { totalCount nodes { databaseId title startDate venues { title city } organizers { title } categories { name } } } }`,
      ),
    ) as any;
    expect(d.events.nodes).toHaveLength(10);
  });

  it('events through calendar-core (a filter only it takes), and core-only fields of one event', async () => {
    const runs = await everywhere(
      `{ events(first: 5, where: { virtual: false }) { nodes { databaseId title virtual } } }`,
    );
    const d = same(runs) as any;
    expect(runs.spec.sent.some((s) => s.startsWith('GET /calendar-core/v1/events'))).toBe(true);
    const id = d.events.nodes[0].databaseId;
    same(
      await everywhere(`{ event(id: "${id}", idType: DATABASE_ID) { title duration commentStatus venues { title } } }`),
    );
  });

  it('venues and organizers, and a category tree', async () => {
    same(
      await everywhere(
        `{ venues(first: 5) { totalCount nodes { databaseId title city } } organizers(first: 5) { nodes { databaseId title } } }`,
      ),
    );
    same(await everywhere(`{ categories(first: 20) { nodes { databaseId name parent { name } children { name } } } }`));
  });

  it('seo: statistics, and keyword research (Yoast’s semrush/* routes)', async () => {
    same(await everywhere(`{ seo { statistics { header ranks { rank count } } } }`, () => ({}), 'admin'));
    for (const names of NAMES) {
      const r = await harness[names].gql(
        `mutation { seo { authenticateKeywordResearch(code: "abc") { success } } }`,
        {},
        'author',
      );
      expect(r.data.seo.authenticateKeywordResearch.success, names).toBe(true);
    }
    const runs = await everywhere(
      `{ seo { relatedKeyphrases(keyphrase: "jazz", countryCode: "us") { columnNames keyphrases { keyword } } } }`,
      () => ({}),
      'author',
    );
    same(runs);
    expect(runs.spec.sent).toEqual(['GET /seo/v1/keyword_research/related_keyphrases']);
    const plugin = requests('plugin').map((r) => r.path);
    expect(plugin).toEqual(['/yoast/v1/semrush/related_keyphrases']);
  });

  it('posts', async () => {
    same(await everywhere(`{ posts(first: 5) { totalCount nodes { databaseId title status categoryIds } } }`));
  });

  it('views: a calendar view rendered', async () => {
    const runs = await everywhere(
      `query($t: String) { calendarView(input: { url: "/events/", view: "list", tvn2: $t }) { html } }`,
      async (names) => ({ t: await nonce(harness[names], '_view_rest') }),
    );
    // The HTML carries each site's own nonces and links: compared by what it renders.
    same(
      runs,
      (d) => typeof d.calendarView.html === 'string' && d.calendarView.html.includes('tribe-events-view--list'),
    );
    expect(runs.spec.sent).toEqual(['GET /calendar/views/v2/html']);
  });

  it('onboarding: a wizard step saved', async () => {
    const runs = await everywhere(
      `mutation($n: String!) { saveOnboardingWizard(input: { actionNonce: $n, currentTab: 1, begun: true, completedTabs: [0] }) { success failed messages } }`,
      async (names) => ({ n: await nonce(harness[names], '_tec_wizard', 'admin') }),
      'admin',
    );
    const d = same(runs) as any;
    expect(d.saveOnboardingWizard.success).toBe(true);
    expect(runs.spec.sent).toEqual(['POST /calendar-core/v2/onboarding/wizard']);
  });

  it('aggregator: an import batch reported', async () => {
    const runs = await everywhere(
      `mutation($i: ImportBatchInput!) { reportImportBatch(input: $i) { status interval activity { type created } } }`,
      (names) => {
        const imp = extrasCredentials(harness[names].sandbox.site).aggregatorImports.find(
          (i) => i.status === 'pending' && !i.locked,
        )!;
        return {
          i: {
            importId: imp.importId,
            batchHash: imp.nextBatchHash,
            data: { done: 0, total: 1 },
            batch: { done: 0, total: 1 },
            percentageComplete: 50,
            interval: 5,
            events: [],
          },
        };
      },
    );
    const d = same(runs) as any;
    expect(d.reportImportBatch.status).toBe('success');
    expect(runs.spec.sent).toHaveLength(1);
    expect(runs.spec.sent[0]).toMatch(/^POST \/calendar\/aggregator\/v1\/import\/[^/]+\/batch$/);
  });
});

describe('writes under every name', () => {
  it('createPosts through /batch/v1: the items are sent under the name the site serves', async () => {
    const runs = await everywhere(
      `mutation { createPosts(inputs: [{ title: "Named A", status: DRAFT }, { title: "Named B", status: DRAFT }]) { written failed results { post { title status } } } }`,
      () => ({}),
      'admin',
    );
    same(runs);
    expect(runs.spec.sent).toEqual(['POST /batch/v1', 'POST /core/v2/posts', 'POST /core/v2/posts']);
    expect(requests('plugin').map((r) => r.path)).toEqual(['/batch/v1', '/wp/v2/posts', '/wp/v2/posts']);
  });

  it('createEvents through /batch/v1 and calendar-core, then an update and a delete of one', async () => {
    const runs = await everywhere(
      `mutation { createEvents(inputs: [
        { title: "Named event A", startDate: "2027-03-01T10:00:00", endDate: "2027-03-01T12:00:00" },
        { title: "Named event B", startDate: "2027-03-02T10:00:00", endDate: "2027-03-02T12:00:00" }
      ]) { written failed results { event { databaseId title startDate } error { code message } } } }`,
      () => ({}),
      'admin',
    );
    const d = same(runs) as any;
    expect(d.createEvents.written).toBe(2);
    expect(runs.spec.sent).toContain('POST /batch/v1');
    const id = d.createEvents.results[0].event.databaseId;
    same(
      await everywhere(
        `mutation { updateEvent(id: "${id}", idType: DATABASE_ID, input: { title: "Named event A2", cost: "5" }) { event { databaseId title cost } } }`,
        () => ({}),
        'admin',
      ),
    );
    same(
      await everywhere(
        `mutation { deleteEvent(id: "${id}", idType: DATABASE_ID, force: true) { databaseId permanently } }`,
        () => ({}),
        'admin',
      ),
    );
  });
});

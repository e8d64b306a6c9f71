/**
 * The sandbox acts as each release (the `tec` option; docs/sandbox.md
 * "Releases"): the root index declares, for every calendar route, exactly the
 * arguments the real release's root index declared (fixtures/declared-args.json,
 * from reference/declared-args.md), `5.7` has no calendar-core namespace, and
 * `6.17` keeps the spec's full tables. The banner and `--help` say which.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { sandboxBanner } from '../../packages/sandbox/src/banner.ts';
import { pluginPath } from '../../packages/sandbox/src/names.ts';
import { parseSandboxOptions, sandboxOptionsFromEnv } from '../../packages/sandbox/src/options.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { SANDBOX_CLI, runCli } from '../helpers/cli.ts';
import { TEC_EEA, restClient, testSandbox } from '../helpers/sandbox.ts';

interface Release {
  release: string;
  namespaces: string[];
  /** `METHOD route` (spec names) -> declared argument names. */
  routes: Record<string, string[]>;
}
const FIXTURE = JSON.parse(readFileSync(new URL('./fixtures/declared-args.json', import.meta.url), 'utf8')) as Record<
  '5.7' | '6.15',
  Release
>;

/** `METHOD route` -> sorted argument names, for every endpoint of the root index. */
function declared(
  routes: Record<string, { endpoints: { methods: string[]; args: Record<string, unknown> }[] }>,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [route, data] of Object.entries(routes)) {
    for (const ep of data.endpoints) for (const m of ep.methods) out[`${m} ${route}`] = Object.keys(ep.args).sort();
  }
  return out;
}

/** The fixture's table as a site with `names` serves it: route keys and the event-category field renamed. */
function expected(release: Release, names: 'spec' | 'plugin'): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(release.routes).map(([key, args]) => {
      const [method, route] = key.split(' ') as [string, string];
      const renamed =
        names === 'plugin' ? args : args.map((a) => (a === 'tribe_events_cat' ? 'calendar_events_cat' : a));
      return [`${method} ${names === 'plugin' ? pluginPath(route) : route}`, renamed.sort()];
    }),
  );
}

const CLOCK = { anchor: '2026-06-01', now: '2026-06-01T12:00:00Z', events: 40 };

describe('declared arguments per release (fixtures/declared-args.json)', () => {
  const started: RunningSandbox[] = [];
  const index = async (options: Parameters<typeof testSandbox>[0]) => {
    const sb = await testSandbox({ ...CLOCK, ...options });
    started.push(sb);
    return (await restClient(sb).get('/')).body;
  };
  afterAll(() => Promise.all(started.map((sb) => sb.close())));

  for (const [tec, names] of [
    ['5.7', 'spec'],
    ['5.7', 'plugin'],
    ['6.15', 'spec'],
    ['6.15', 'plugin'],
  ] as const) {
    it(`TEC ${tec}, ${names} names: every calendar route declares exactly the release's arguments`, async () => {
      const have = declared((await index({ tec, names })).routes);
      const want = expected(FIXTURE[tec], names);
      for (const [key, args] of Object.entries(want)) expect(have[key], key).toEqual(args);
      // PUT shares its endpoint with POST and PATCH (WP_REST_Server::EDITABLE); the tables list those two.
      for (const key of Object.keys(have).filter((k) => k.startsWith('PUT ') && want[k.replace('PUT', 'PATCH')])) {
        expect(have[key], key).toEqual(want[key.replace('PUT', 'PATCH')]);
      }
    });
  }

  it('TEC 5.7 has neither calendar-core/v1 nor its onboarding namespace, and keeps views and the aggregator', async () => {
    const body = await index({ tec: '5.7' });
    const real = FIXTURE['5.7'].namespaces;
    for (const ns of ['calendar/events/v1', 'calendar/views/v2', 'calendar/aggregator/v1', 'seo/v1', 'core/v2']) {
      expect(real).toContain(ns);
      expect(body.namespaces).toContain(ns);
    }
    for (const gone of ['calendar-core/v1', 'calendar-core/v2/onboarding']) {
      expect(body.namespaces).not.toContain(gone);
      expect(Object.keys(body.routes).filter((r) => r.startsWith(`/${gone}`))).toEqual([]);
    }
    const sb = started.at(-1)!;
    const r = await restClient(sb).get('/calendar-core/v1/events', null, { 'x-tec-eea': TEC_EEA });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('rest_no_route');
  });

  it('TEC 6.15.14 has calendar-core/v1 and the onboarding namespace', async () => {
    const body = await index({});
    for (const ns of ['calendar-core/v1', 'calendar-core/v2/onboarding']) expect(body.namespaces).toContain(ns);
    expect(FIXTURE['6.15'].namespaces).toEqual(
      expect.arrayContaining(['tec/v1', 'tec/v2/onboarding', 'calendar-core/v1']),
    );
  });

  it("TEC 6.17 keeps the spec's full tables: the 6.15.14 legacy lists, and calendar-core with every B1 filter and write field", async () => {
    const have = declared((await index({ tec: '6.17' })).routes);
    const legacy = Object.entries(expected(FIXTURE['6.15'], 'spec')).filter(([k]) =>
      k.includes('/calendar/events/v1/'),
    );
    for (const [key, args] of legacy) expect(have[key], key).toEqual(args);
    expect(have['GET /calendar-core/v1/events']).toEqual(
      expect.arrayContaining([
        'virtual',
        'recurring',
        'in_series',
        'series',
        'related_to',
        'near',
        'geoloc_lat',
        'geoloc_lng',
        'distance',
        'has_geoloc',
      ]),
    );
    expect(have['POST /calendar-core/v1/events']).toEqual(
      expect.arrayContaining(['virtual', 'lat', 'lng', 'calendar_events_cat']),
    );
    expect(have['GET /calendar-core/v1/events/(?P<id>\\d+)']).toEqual(['id']);
  });

  it('TEC 6.17 applies the write fields 6.15.14 does not declare', async () => {
    const sb = await testSandbox({ ...CLOCK, tec: '6.17' });
    started.push(sb);
    const r = await restClient(sb).send(
      'POST',
      '/calendar-core/v1/events',
      {
        title: 'Spec fields',
        start_date: '2027-05-01 20:00:00',
        end_date: '2027-05-01 23:00:00',
        virtual: true,
        lat: 48.85,
        lng: 2.35,
      },
      'admin',
    );
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ virtual: true, lat: 48.85, lng: 2.35 });
    expect(sb.log.undeclared()).toEqual([]);
  });
});

describe('the release and names, as options, in the banner and in --help', () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await testSandbox({ demo: false, tec: '5.7', names: 'plugin' });
  });
  afterAll(() => sb.close());

  it("reads SANDBOX_TEC, SANDBOX_NAMES and SANDBOX_STRICT_ARGS, and 5.7 brings WordPress 6.1's wrong-password rule unless told otherwise", () => {
    expect(sandboxOptionsFromEnv({ SANDBOX_TEC: '5.7', SANDBOX_NAMES: 'both', SANDBOX_STRICT_ARGS: '1' })).toEqual({
      tec: '5.7',
      names: 'both',
      strictArgs: true,
    });
    expect(parseSandboxOptions({})).toMatchObject({
      tec: '6.15',
      names: 'spec',
      strictArgs: false,
      wrongPassword: 'error',
    });
    expect(parseSandboxOptions({ tec: '5.7' })).toMatchObject({
      wrongPassword: 'anonymous',
      disable: ['calendar-core/v1', 'calendar-core/v2/onboarding'],
    });
    expect(parseSandboxOptions({ tec: '5.7', wrongPassword: 'error' }).wrongPassword).toBe('error');
    // `disable` takes either name of a namespace or route.
    expect(parseSandboxOptions({ disable: ['yoast/v1', '/yoast/v1/redirects'] }).disable).toEqual([
      'seo/v1',
      '/seo/v1/redirects',
    ]);
  });

  it('lists every release and names value in --help, and what the environment chooses', async () => {
    const r = await runCli(SANDBOX_CLI, ['--help'], { SANDBOX_TEC: '5.7', SANDBOX_NAMES: 'both' });
    expect(r.code).toBe(0);
    for (const line of [
      /^ {2}SANDBOX_TEC=5\.7 +WordPress 6\.1 \+ The Events Calendar 5\.7\.1/m,
      /^ {2}SANDBOX_TEC=6\.15 +WordPress 6\.8 \+ The Events Calendar 6\.15\.14/m,
      /^ {2}SANDBOX_TEC=6\.17 /m,
      /^ {2}SANDBOX_NAMES=plugin +the plugins' own/m,
      /^ {2}SANDBOX_NAMES=both /m,
      /^ {2}SANDBOX_STRICT_ARGS +0 /m,
    ]) {
      expect(r.stdout).toMatch(line);
    }
    expect(r.stdout).toContain('With this environment it acts as TEC 5.7, both names.');
  }, 60_000);

  it('prints what the site acts as in the banner', () => {
    const text = sandboxBanner(sb);
    expect(text).toMatch(/^acts as: WordPress 6\.1 \+ The Events Calendar 5\.7\.1: the legacy interface only/m);
    expect(text).toMatch(/^namespace names: the plugins' own \(tribe\/events\/v1, tec\/v1, /m);
    expect(text).toContain('wrong application password treated as anonymous (WordPress 6.1)');
  });
});

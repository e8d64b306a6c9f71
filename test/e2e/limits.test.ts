/**
 * Bounded work per request (issue 9): the cost estimate with variables known,
 * the `nodes(ids:)` cap, introspection inside the limits, subscriptions
 * refused, argument sizes checked before anything is sent, wrong-shape list
 * bodies, and redaction of the request's secrets by value.
 */
import { getIntrospectionQuery } from 'graphql';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';

const EVENTS = '^/calendar/events/v1/events$';

describe('abuse limits with variables known', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.sandbox.faults.clear();
    h.mark();
  });

  const NESTED = `query($n: Int) { events(first: $n) { nodes { venues { events(first: $n) { nodes { title } } } } } }`;

  it('refuses a nested query whose page sizes come from variables, before any upstream request', async () => {
    const r = await h.gql(NESTED, { n: 500 });
    expect(r.status).toBe(400);
    expect(r.errors).toHaveLength(1);
    expect(r.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'maxCost', cost: 2501, max: 1000 });
    expect(r.errors![0]!.message).toMatch(/cost 2501 exceeds the limit of 1000/);
    expect(h.calls()).toHaveLength(0);
  });

  it("judges the same text again with each request's variables (verdicts are kept only for operations without variables)", async () => {
    for (const [n, refused] of [
      [500, true],
      [10, false],
      [500, true],
      [10, false],
    ] as const) {
      const r = await h.gql(NESTED, { n });
      expect(r.status).toBe(refused ? 400 : 200);
      expect(r.errors?.[0]?.extensions?.code).toBe(refused ? 'BAD_USER_INPUT' : undefined);
    }
  });

  it('counts every alias of a costly field', async () => {
    const three = `query($n: Int) { ${['a', 'b', 'c'].map((a) => `${a}: events(first: $n) { nodes { venues { events(first: $n) { nodes { title } } } } }`).join(' ')} }`;
    // 3 x (1 + 40 x 5) = 603 passes; 3 x (1 + 80 x 5) = 1203 does not.
    const r = await h.gql(three, { n: 80 });
    expect(r.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', cost: 1203 });
    expect(h.calls()).toHaveLength(0);
  });

  it('applies defaults of variables and the default page size', async () => {
    const r = await h.gql(
      `query($n: Int = 300) { events(first: $n) { nodes { venues { events { nodes { title } } } } } }`,
    );
    // 1 + 300 x 5 x 1 (the inner connection's 10 events are below it, not counted)
    expect(r.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', cost: 1501 });
    expect(h.calls()).toHaveLength(0);
  });

  it('caps nodes(ids:) at 100 IDs, naming the argument', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => Buffer.from(`Venue:${i + 1}`).toString('base64'));
    const r = await h.gql(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids });
    expect(r.status).toBe(400);
    expect(r.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      arguments: ['ids'],
      limit: 'maxListItems',
      max: 100,
    });
    expect(r.errors![0]!.message).toMatch(/ids of nodes has 101 items; at most 100/);
    expect(h.calls()).toHaveLength(0);
  });

  it('counts nodes(ids:) one per ID', async () => {
    // 100 IDs, each with a connection of 10: 100 + 100 x 1 = 200 under a limit of 150 is refused.
    const small = await startHarness({ config: { limits: { maxCost: 150 } } });
    try {
      const ids = Array.from({ length: 100 }, (_, i) => Buffer.from(`Venue:${i + 1}`).toString('base64'));
      const r = await small.gql(
        `query($ids: [ID!]!) { nodes(ids: $ids) { ... on Venue { events { nodes { title } } } } }`,
        { ids },
      );
      expect(r.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', cost: 200, max: 150 });
      expect(small.calls()).toHaveLength(0);
    } finally {
      await small.close();
    }
  });

  describe('argument sizes, before anything is sent', () => {
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      [
        'a 20 KB search',
        `query($s: String) { events(where: { search: $s }) { nodes { title } } }`,
        { s: 'x'.repeat(20_000) },
        'where.search',
      ],
      [
        '20 000 event IDs',
        `query($ids: [Int!]) { events(where: { ids: $ids }) { nodes { title } } }`,
        { ids: Array.from({ length: 20_000 }, (_, i) => i + 1) },
        'where.ids',
      ],
      [
        '101 venue IDs',
        `query($v: [Int!]) { events(where: { venueIds: $v }) { nodes { title } } }`,
        { v: Array.from({ length: 101 }, (_, i) => i + 1) },
        'where.venueIds',
      ],
      [
        '101 category IDs',
        `query($v: [Int!]) { events(where: { categoryIds: $v }) { nodes { title } } }`,
        { v: Array.from({ length: 101 }, (_, i) => i + 1) },
        'where.categoryIds',
      ],
      [
        'a 300-character slug',
        `query($s: String!) { events(where: { categorySlugs: [$s] }) { nodes { title } } }`,
        { s: 'a'.repeat(300) },
        'where.categorySlugs',
      ],
      [
        'a 3000-character URL',
        `query($u: String!) { oembed(url: $u) { title } }`,
        { u: `https://example.org/${'a'.repeat(3000)}` },
        'url',
      ],
      [
        'a page size above the cap, nested',
        `{ venues(first: 2) { nodes { events(first: 501) { nodes { title } } } } }`,
        {},
        'first',
      ],
      ['a 2000-character ID', `query($id: ID!) { event(id: $id) { title } }`, { id: '1'.repeat(2000) }, 'id'],
    ];
    for (const [what, query, variables, argument] of cases) {
      it(`refuses ${what} naming ${argument}`, async () => {
        const r = await h.gql(query, variables);
        expect(r.status).toBe(400);
        expect(r.errors).toHaveLength(1);
        expect(r.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: [argument] });
        expect(h.calls()).toHaveLength(0);
      });
    }

    it('passes arguments at their limits', async () => {
      let r = await h.gql(`query($s: String) { events(first: 1, where: { search: $s }) { nodes { title } } }`, {
        s: 'x'.repeat(200),
      });
      expect(r.errors).toBeUndefined();
      // IDs the site's include= window does not return are read one by one: most of these 100 are, which is
      // more than an anonymous operation's 50 requests (UPSTREAM_BUDGET_ANONYMOUS), so as an editor.
      r = await h.gql(
        `query($v: [Int!]) { events(first: 1, where: { ids: $v }) { nodes { title } } }`,
        { v: Array.from({ length: 100 }, (_, i) => i + 1) },
        'editor',
      );
      expect(r.errors).toBeUndefined();
    });
  });

  it('maps an upstream 431 or 414 to BAD_USER_INPUT', async () => {
    for (const status of [431, 414]) {
      h.sandbox.faults.clear();
      h.sandbox.faults.add({
        path: EVENTS,
        status,
        body: '<html><body>Request Header Fields Too Large</body></html>',
        headers: { 'content-type': 'text/html' },
      });
      const r = await h.gql(`{ events(first: 1) { nodes { title } } }`);
      expect(r.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', upstream: { status } });
    }
  });

  describe('a list body that is not an array', () => {
    it('is UPSTREAM_BAD_RESPONSE with the real status (legacy envelope)', async () => {
      h.sandbox.faults.add({ path: EVENTS, status: 200, body: { rest: 'not a list' } });
      const r = await h.gql(`{ events(first: 1) { nodes { title } } }`);
      expect(r.errors![0]!.extensions).toMatchObject({
        code: 'UPSTREAM_BAD_RESPONSE',
        upstream: { status: 200, route: 'GET /calendar/events/v1/events' },
      });
    });

    it('is UPSTREAM_BAD_RESPONSE with the real status (a bare-array list)', async () => {
      h.sandbox.faults.add({ path: '^/core/v2/posts$', status: 200, body: { not: 'an array' } });
      const r = await h.gql(`{ posts(first: 1) { nodes { title } } }`);
      expect(r.errors![0]!.extensions).toMatchObject({ code: 'UPSTREAM_BAD_RESPONSE', upstream: { status: 200 } });
    });
  });
});

describe('introspection inside the limits', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it("passes GraphiQL's standard introspection query", async () => {
    const r = await h.gql(
      getIntrospectionQuery({
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        schemaDescription: true,
        inputValueDeprecation: true,
      }),
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.__schema.types.length).toBeGreaterThan(100);
  });

  it('refuses 50 aliased __schema selections cheaply', async () => {
    const q = `{ ${Array.from({ length: 50 }, (_, i) => `s${i}: __schema { types { name fields { name type { name } } } }`).join(' ')} }`;
    const started = performance.now();
    const res = await fetch(h.gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: q }),
    });
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(text.length).toBeLessThan(2_000);
    expect(JSON.parse(text).errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'maxCost' });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('counts introspection fields in the depth', async () => {
    // __type > fields > type > 12 x ofType > name: depth 16.
    const deep = `{ __type(name: "Event") { fields { type { ${'ofType { '.repeat(12)}name${' }'.repeat(12)} } } } }`;
    const r = await h.gql(deep);
    expect(r.errors![0]!.message).toMatch(/depth 16 exceeds the limit of 15/);
  });

  it('turns introspection off with INTROSPECTION=0, GraphQL still answering', async () => {
    const off = await startHarness({ config: { introspection: false } });
    try {
      const r = await off.gql(`{ __schema { queryType { name } } }`);
      expect(r.status).toBe(400);
      expect(r.errors![0]!.message).toMatch(
        /^Introspection is turned off on this gateway \(INTROSPECTION=0\), so "__schema" cannot be queried/,
      );
      expect(r.errors![0]!.message).not.toMatch(/ApolloServer/);
      expect(r.errors![0]!.extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED', setting: 'INTROSPECTION' });
      expect((await off.gql(`{ __type(name: "Event") { name } }`)).errors![0]!.extensions!.setting).toBe(
        'INTROSPECTION',
      );
      const ok = await off.gql(`{ __typename site { name } }`);
      expect(ok.data).toEqual({ __typename: 'Query', site: { name: 'Sitegraph Sandbox' } });
    } finally {
      await off.close();
    }
  });
});

describe('subscriptions', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  afterEach(() => vi.restoreAllMocks());

  it('answers a plain POST a clear 400 naming the transports, and logs nothing', async () => {
    const error = vi.spyOn(console, 'error');
    const warn = vi.spyOn(console, 'warn');
    // Served over SSE and WebSocket (test/e2e/subscriptions*.test.ts); Apollo answers one result per request.
    const r = await h.gql(`subscription { eventChanged { kind } }`);
    expect(r.status).toBe(400);
    expect(r.errors).toHaveLength(1);
    expect(r.errors![0]!.extensions).toEqual({ code: 'OPERATION_NOT_SUPPORTED' });
    expect(r.errors![0]!.message).toMatch(/subscriptions are not supported as a plain request.*SSE.*WebSocket/i);
    expect(error).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('redaction by value', () => {
  const KEY = 'gov-Key-7f3a9c2e5b';
  const SERVICE = 'svc-Pass-90ab12cd34';
  let h: Harness;
  let logged: string[];
  beforeAll(async () => {
    // The service credential is the sandbox admin's application password.
    h = await startHarness({ sandbox: { appPassword: SERVICE }, config: { serviceAuth: `admin:${SERVICE}` } });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.sandbox.faults.clear();
    logged = [];
    for (const m of ['error', 'warn', 'log', 'info'] as const)
      vi.spyOn(console, m).mockImplementation(
        (...args: unknown[]) =>
          void logged.push(
            args
              .map((a) => (a instanceof Error ? `${a.stack}` : typeof a === 'string' ? a : JSON.stringify(a)))
              .join(' '),
          ),
      );
  });
  afterEach(() => vi.restoreAllMocks());

  const echo = (secret: string) => ({
    code: 'site_governance_invalid_api_key',
    message: `The key ${secret} is not valid (we got ${encodeURIComponent(secret)}).`,
    data: { status: 401, params: { api_key: secret, note: `echo:${secret}` }, details: { received: [secret] } },
  });
  const REMOTE = `query($k: String) { governance { remote(apiKey: $k) { trainingStatuses { userLogin } } } }`;

  it('removes a governance key given as an argument from message, params and details', async () => {
    h.sandbox.faults.add({ path: '^/site-governance/v1/remote/', status: 401, body: echo(KEY) });
    const r = await h.gql(REMOTE, { k: KEY });
    expect(r.errors).toHaveLength(1);
    expect(r.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    const text = JSON.stringify(r.errors);
    expect(text).not.toContain(KEY);
    expect(text).toContain('[REDACTED]');
    expect(r.errors![0]!.extensions!.params.note).toBe('echo:[REDACTED]');
  });

  it('removes a governance key written in the query text, every time the same text comes', async () => {
    h.sandbox.faults.add({ path: '^/site-governance/v1/remote/', status: 401, body: echo(KEY), times: 2 });
    for (let i = 0; i < 2; i++) {
      const r = await h.gql(`{ governance { remote(apiKey: "${KEY}") { trainingStatuses { userLogin } } } }`);
      expect(r.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
      expect(JSON.stringify(r.errors)).not.toContain(KEY);
    }
  });

  it('removes a governance key given as the X-Governance-Api-Key header', async () => {
    h.sandbox.faults.add({ path: '^/site-governance/v1/remote/', status: 401, body: echo(KEY) });
    const r = await h.gql(REMOTE, {}, null, { 'x-governance-api-key': KEY });
    expect(JSON.stringify(r.errors)).not.toContain(KEY);
    expect(r.errors![0]!.extensions!.params.note).toBe('echo:[REDACTED]');
  });

  it("removes the caller's password and the service credential, whatever the site echoes", async () => {
    const password = 'Caller pass 0123 4567';
    const authorization = `Basic ${Buffer.from(`someone:${password}`).toString('base64')}`;
    h.sandbox.faults.add({
      path: EVENTS,
      status: 400,
      body: {
        code: 'rest_invalid_param',
        message: `bad ${password} / ${SERVICE}`,
        data: { status: 400, params: { per_page: `${authorization} ${SERVICE}` } },
      },
    });
    const r = await h.gql(`{ events(first: 1) { nodes { title } } }`, {}, null, { authorization });
    const text = JSON.stringify(r.errors);
    expect(r.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    for (const s of [password, SERVICE, authorization, Buffer.from(`someone:${password}`).toString('base64')])
      expect(text).not.toContain(s);
    expect(logged.join('\n')).not.toContain(password);
  });

  it('removes an automation token from errors and from the log of an internal error', async () => {
    const token = 'tok-abcdef-123456';
    h.sandbox.faults.add({
      path: '^/calendar/automation-b/v1/',
      status: 500,
      body: { code: 'x', message: `token ${token} rejected`, data: { status: 500, params: { access_token: token } } },
    });
    const r = await h.gql(`{ automationB { newEvents { emptyReason } } }`, {}, null, { 'x-automation-token': token });
    expect(r.errors!.length).toBeGreaterThan(0);
    expect(JSON.stringify(r.errors)).not.toContain(token);
    expect(logged.join('\n')).not.toContain(token);
  });
});

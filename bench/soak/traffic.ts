/**
 * The soak's traffic (bench/soak.ts): what each operation sends, how each
 * answer is classified, and the ledger of writes reconciled against the site
 * at the end.
 *
 * Classes of an answer:
 * - `ok`: what was asked;
 * - `refused`: a documented refusal (a malformed or oversize request's 4xx,
 *   BAD_USER_INPUT, WRITE_LOCK_TIMEOUT, a purge's 503 while Redis is away);
 * - `upstream`: the site's failure, relayed with the gateway's upstream codes
 *   (UPSTREAM_*, OUTCOME_UNKNOWN, WRITE_NOT_APPLIED...), in a 200 or a 5xx;
 * - `gateway`: the gateway's own failure: INTERNAL_SERVER_ERROR, a code it does
 *   not document, a 5xx without an upstream code, an answer that is not JSON;
 * - `dropped`: no answer at all (the connection closed or refused, or no
 *   answer within 60 s);
 * - `excused`: anything but `ok` from a request in flight to the restarted
 *   instance when it was sent SIGTERM (decided after the run).
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { parse, print } from 'graphql';
import { Pool } from 'undici';
import type { GatewayProcess, SandboxProcess } from './processes.ts';
import type { SubTarget } from './subscribers.ts';

export type Klass = 'ok' | 'refused' | 'upstream' | 'gateway' | 'dropped' | 'excused';
export const KLASSES: Klass[] = ['ok', 'refused', 'upstream', 'gateway', 'dropped', 'excused'];

export interface Target extends SubTarget {
  g: GatewayProcess;
  pool: Pool;
}

export interface Outcome {
  kind: string;
  detail: string;
  target: string;
  /** The instance's life the request was sent to. */
  gen: number;
  start: number;
  end: number;
  status: number | null;
  codes: string[];
  klass: Klass;
  /** A few words of the error, for the report. */
  note?: string;
}

/** The gateway's codes for a failure of the site (src/errors.ts), relayed. */
const UPSTREAM = new Set([
  'UPSTREAM_TIMEOUT',
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_ERROR',
  'UPSTREAM_BAD_RESPONSE',
  'NAMESPACE_UNAVAILABLE',
  'REQUEST_BUDGET_EXCEEDED',
  'OUTCOME_UNKNOWN',
  'WRITE_NOT_APPLIED',
]);
/** Documented refusals: the request's own fault, or a limit. */
const REFUSED = new Set([
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'GONE',
  'CONFLICT',
  'WRITE_LOCK_TIMEOUT',
  'OPERATION_NOT_SUPPORTED',
  'SUBSCRIPTION_LIMIT',
  'PERSISTED_QUERY_NOT_FOUND',
]);
/**
 * A write answered with only these codes is reported as not written, safe to send again (docs/writes.md "Write
 * outcomes").
 */
const FAILED = new Set([
  'BAD_USER_INPUT',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'GONE',
  'CONFLICT',
  'NOT_EXECUTED',
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_ERROR',
  'WRITE_LOCK_TIMEOUT',
]);

export function classify(status: number, json: any): { klass: Klass; codes: string[]; note?: string } {
  if (json === null || typeof json !== 'object') {
    return { klass: status >= 400 && status < 500 ? 'refused' : 'gateway', codes: [`HTTP ${status}, not JSON`] };
  }
  const errors: any[] = Array.isArray(json.errors) ? json.errors : [];
  const codes = errors.map((e) => String(e?.extensions?.code ?? 'NO_CODE'));
  const note = errors[0]?.message ? String(errors[0].message).slice(0, 160) : undefined;
  const upstream = codes.some((c) => UPSTREAM.has(c));
  if (codes.some((c) => !UPSTREAM.has(c) && !REFUSED.has(c))) return { klass: 'gateway', codes, note };
  if (status >= 500 && !upstream) return { klass: 'gateway', codes: codes.length ? codes : [`HTTP ${status}`], note };
  if (upstream) return { klass: 'upstream', codes, note };
  if (codes.length || status >= 400)
    return { klass: 'refused', codes: codes.length ? codes : [`HTTP ${status}`], note };
  return { klass: 'ok', codes };
}

function decode(buf: Buffer, coding: string | string[] | undefined): string {
  if (coding === 'gzip') return gunzipSync(buf).toString('utf8');
  if (coding === 'br') return brotliDecompressSync(buf).toString('utf8');
  return buf.toString('utf8');
}

function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const transportCode = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).name ?? 'error';

// ---------------------------------------------------------------- the reads

/** The example queries of README.md and docs/graph.md, as test/e2e/examples.test.ts reads them. */
export function docQueries(): { name: string; query: string }[] {
  const out: { name: string; query: string }[] = [];
  for (const page of ['README.md', 'docs/graph.md']) {
    const text = readFileSync(page, 'utf8');
    for (const [i, m] of [...text.matchAll(/```graphql\n([\s\S]*?)```/g)].entries()) {
      let doc;
      try {
        doc = parse(m[1]!);
      } catch {
        continue;
      }
      for (const def of doc.definitions) {
        if (def.kind === 'OperationDefinition' && def.operation === 'query')
          out.push({ name: `${page} block ${i + 1}`, query: print(def) });
      }
    }
  }
  return out;
}

/** A signed-in front end: drafts and published events (calendar-core's several statuses). */
const EDITOR_QUERY =
  '{ events(first: 10, where: { status: [DRAFT, PUBLISH] }) { nodes { databaseId title status startDate } } }';

const PULL: Record<'events' | 'venues' | 'organizers', string> = {
  events:
    'query SoakPullEvents($after: String) { events(first: 100, after: $after) { pageInfo { hasNextPage endCursor } nodes { databaseId title startDate venues { title } organizers { title } } } }',
  venues:
    'query SoakPullVenues($after: String) { venues(first: 100, after: $after) { pageInfo { hasNextPage endCursor } nodes { databaseId title city } } }',
  organizers:
    'query SoakPullOrganizers($after: String) { organizers(first: 100, after: $after) { pageInfo { hasNextPage endCursor } nodes { databaseId title email } } }',
};

// ---------------------------------------------------------------- the writes

export type ObjType = 'event' | 'venue' | 'organizer';
const TYPES: ObjType[] = ['event', 'venue', 'organizer'];
/**
 * The two fields each kind of object is updated on (one per instance in a concurrent pair), and their values at
 * creation.
 */
const FIELDS: Record<ObjType, [string, string]> = {
  event: ['cost', 'website'],
  venue: ['city', 'phone'],
  organizer: ['phone', 'email'],
};
const INITIAL: Record<ObjType, Record<string, string>> = {
  event: { cost: '1', website: '' },
  venue: { city: 'Soakville', phone: '' },
  organizer: { phone: '100', email: '' },
};
const SELECTION: Record<ObjType, string> = {
  event: 'event { databaseId title cost website }',
  venue: 'venue { databaseId title city phone }',
  organizer: 'organizer { databaseId title phone email }',
};
const TypeName: Record<ObjType, string> = { event: 'Event', venue: 'Venue', organizer: 'Organizer' };

function valueFor(type: ObjType, field: string, n: number): string {
  if (type === 'event' && field === 'cost') return String(1000 + n);
  if (field === 'website') return `https://soak.example/w/${n}`;
  if (field === 'email') return `o${n}@soak.example`;
  if (field === 'city') return `City ${n}`;
  return `555-${n}`;
}

/** Values as the site keeps them: a cost by its amount (`$1017` is 1017), the rest trimmed. */
function norm(type: ObjType, field: string, v: unknown): string {
  const s = v === null || v === undefined ? '' : String(v).trim();
  return type === 'event' && field === 'cost' ? s.replace(/[^0-9.]/g, '') : s;
}

export interface Write {
  seq: number;
  op: 'create' | 'update';
  type: ObjType;
  target: string;
  gen: number;
  start: number;
  end: number;
  /** Creates: the unique title. */
  title?: string;
  /** The object's ID: returned by a create, or the one updated. */
  id?: number;
  field?: string;
  value?: string;
  /** Sent in a pair: the same object updated through both instances at once. */
  pair?: boolean;
  outcome: 'success' | 'failed' | 'unknown' | 'not-applied';
  codes: string[];
  /** What a successful answer showed for the field written (updates) or the title (creates). */
  shown?: string;
  /** In flight to the restarted instance when it was sent SIGTERM. */
  atSigterm?: boolean;
}

interface Held {
  type: ObjType;
  id: number;
}

export interface Violation {
  what: string;
  detail: string;
}

// ---------------------------------------------------------------- the driver

export class Driver {
  readonly outcomes: Outcome[] = [];
  readonly ledger: Write[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** Ticks not sent because MAX_IN_FLIGHT requests were already waiting (the machine could not keep up). */
  skipped = 0;
  private seq = 0;
  private readonly busy = new Set<string>();
  readonly held: Record<ObjType, Held[]> = { event: [], venue: [], organizer: [] };
  private rr = 0;

  constructor(
    readonly targets: Target[],
    readonly run: string,
    readonly auth: { admin: string; editor: string },
    /** Published events, for the README's event page asked of other events. */
    readonly eventIds: number[],
    private readonly readQueries: { name: string; query: string }[],
    /** Requests waiting at most; a tick beyond is skipped and counted. */
    readonly cap = 80,
  ) {}

  /** An instance that is up, in turn. */
  pick(): Target | null {
    const up = this.targets.filter((t) => t.up);
    if (!up.length) return null;
    this.rr = (this.rr + 1) % up.length;
    return up[this.rr]!;
  }

  private record(o: Outcome): Outcome {
    this.outcomes.push(o);
    return o;
  }

  /** One POST (or GET) to /graphql; the answer classified. */
  async graphql(
    t: Target,
    kind: string,
    detail: string,
    payload: { query: string; variables?: Record<string, unknown>; operationName?: string } | string,
    opts: { auth?: string; get?: boolean; gzip?: boolean; contentType?: string } = {},
  ): Promise<{ o: Outcome; json: any }> {
    const start = Date.now();
    const gen = t.g.gen;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const headers: Record<string, string> = { 'user-agent': 'sitegraph-soak' };
    if (opts.auth) headers.authorization = opts.auth;
    if (opts.gzip) headers['accept-encoding'] = 'gzip';
    let status: number | null = null;
    let json: any = null;
    try {
      let res;
      if (opts.get && typeof payload !== 'string') {
        const qs = new URLSearchParams({ query: payload.query });
        if (payload.variables) qs.set('variables', JSON.stringify(payload.variables));
        // Apollo's CSRF prevention takes a GET only with a header a plain cross-site form cannot send.
        res = await t.pool.request({
          method: 'GET',
          path: `/graphql?${qs}`,
          headers: { ...headers, accept: 'application/json', 'apollo-require-preflight': 'true' },
          headersTimeout: 60_000,
          bodyTimeout: 60_000,
        });
      } else {
        headers['content-type'] = opts.contentType ?? 'application/json';
        const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
        res = await t.pool.request({
          method: 'POST',
          path: '/graphql',
          headers,
          body,
          headersTimeout: 60_000,
          bodyTimeout: 60_000,
        });
      }
      status = res.statusCode;
      const buf = Buffer.from(await res.body.arrayBuffer());
      json = parseJson(decode(buf, res.headers['content-encoding']));
    } catch (err) {
      return {
        o: this.record({
          kind,
          detail,
          target: t.name,
          gen,
          start,
          end: Date.now(),
          status,
          codes: [transportCode(err)],
          klass: 'dropped',
          note: (err as Error).message?.slice(0, 160),
        }),
        json: null,
      };
    } finally {
      this.inFlight--;
    }
    const c = classify(status, json);
    return {
      o: this.record({
        kind,
        detail,
        target: t.name,
        gen,
        start,
        end: Date.now(),
        status,
        codes: c.codes,
        klass: c.klass,
        ...(c.note ? { note: c.note } : {}),
      }),
      json,
    };
  }

  /** One operation of the steady stream, chosen by weight. */
  tick(): void {
    if (this.inFlight >= this.cap) {
      this.skipped++;
      return;
    }
    const r = Math.random() * 100;
    if (r < 55) void this.readAnonymous();
    else if (r < 86) void this.readSignedIn();
    else if (r < 94) void this.write();
    else if (r < 98) void this.malformed();
    else void this.oversize(Math.random() < 0.5);
  }

  private readQuery(): { name: string; query: string } {
    const q = this.readQueries[Math.floor(Math.random() * this.readQueries.length)]!;
    // The README's event page, for another event now and then: answers the response cache does not hold yet.
    if (q.query.includes('event(id: "208")') && this.eventIds.length && Math.random() < 0.5) {
      const id = this.eventIds[Math.floor(Math.random() * this.eventIds.length)]!;
      return { name: `${q.name} (event ${id})`, query: q.query.replace('event(id: "208")', `event(id: "${id}")`) };
    }
    return q;
  }

  async readAnonymous(): Promise<void> {
    const t = this.pick();
    if (!t) return;
    const q = this.readQuery();
    const get = Math.random() < 0.2;
    await this.graphql(t, 'read anonymous', q.name, { query: q.query }, { get, gzip: Math.random() < 0.33 });
  }

  async readSignedIn(): Promise<void> {
    const t = this.pick();
    if (!t) return;
    const q = Math.random() < 0.2 ? { name: 'drafts and published', query: EDITOR_QUERY } : this.readQuery();
    await this.graphql(
      t,
      'read signed in',
      q.name,
      { query: q.query },
      { auth: this.auth.editor, gzip: Math.random() < 0.33 },
    );
  }

  /** A paged connection pulled to its end, page after page, through one instance. */
  async bulk(what: 'events' | 'venues' | 'organizers', signedIn: boolean): Promise<number> {
    const t = this.pick();
    if (!t) return 0;
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const { o, json } = await this.graphql(
        t,
        'bulk pull page',
        what,
        { query: PULL[what], variables: { after } },
        signedIn ? { auth: this.auth.editor } : {},
      );
      if (o.klass !== 'ok') return pages;
      const conn = json.data[what];
      pages++;
      if (!conn.pageInfo.hasNextPage || pages >= 100 || !t.up) return pages;
      after = conn.pageInfo.endCursor;
    }
  }

  // ---------------------------------------------------------------- writes

  async write(): Promise<void> {
    const r = Math.random();
    if (r < 0.25 || TYPES.some((ty) => this.held[ty].length === 0))
      return void (await this.create(TYPES[Math.floor(Math.random() * 3)]!));
    const type = TYPES[Math.floor(Math.random() * 3)]!;
    const obj = this.held[type][Math.floor(Math.random() * this.held[type].length)]!;
    if (r < 0.7) {
      const field = FIELDS[type][Math.random() < 0.5 ? 0 : 1];
      const t = this.pick();
      if (t) await this.update(t, obj, field);
    } else {
      await this.pair(obj);
    }
  }

  async create(type: ObjType, t: Target | null = this.pick()): Promise<Write | null> {
    if (!t) return null;
    const n = ++this.seq;
    const title = `soak-${this.run}-${type}-${n}`;
    const day = new Date(Date.now() + (20 + (n % 60)) * 86_400_000).toISOString().slice(0, 10);
    const input: Record<string, unknown> =
      type === 'event'
        ? {
            title,
            startDate: `${day}T18:00:00Z`,
            endDate: `${day}T20:00:00Z`,
            timezone: 'UTC',
            status: 'PUBLISH',
            cost: INITIAL.event.cost,
          }
        : type === 'venue'
          ? { title, status: 'PUBLISH', city: INITIAL.venue.city }
          : { title, status: 'PUBLISH', phone: INITIAL.organizer.phone };
    const T = TypeName[type];
    const query = `mutation SoakCreate${T}($input: ${T}Input!) { create${T}(input: $input) { ${SELECTION[type]} } }`;
    const { o, json } = await this.graphql(
      t,
      'write',
      `create ${type}`,
      { query, variables: { input }, operationName: `SoakCreate${T}` },
      { auth: this.auth.admin },
    );
    const payload = json?.data?.[`create${T}`]?.[type] ?? null;
    const w: Write = {
      seq: n,
      op: 'create',
      type,
      target: t.name,
      gen: o.gen,
      start: o.start,
      end: o.end,
      title,
      outcome: writeOutcome(o, payload),
      codes: o.codes,
    };
    if (w.outcome === 'success') {
      w.id = payload.databaseId;
      w.shown = String(payload.title ?? '');
      const list = this.held[type];
      list.push({ type, id: payload.databaseId });
      // The most recent 40 of each kind are updated; older ones keep their last state.
      if (list.length > 40) list.shift();
    }
    this.ledger.push(w);
    return w;
  }

  /** One update of one field; never two of the same object and field at once (so their order is known). */
  async update(t: Target, obj: Held, field: string, pair = false): Promise<Write | null> {
    const key = `${obj.type}:${obj.id}:${field}`;
    if (this.busy.has(key)) return null;
    this.busy.add(key);
    try {
      const n = ++this.seq;
      const value = valueFor(obj.type, field, n);
      const T = TypeName[obj.type];
      const query = `mutation SoakUpdate${T}($id: ID!, $input: ${T}Input!) { update${T}(id: $id, input: $input) { ${SELECTION[obj.type]} } }`;
      const { o, json } = await this.graphql(
        t,
        pair ? 'write (concurrent pair)' : 'write',
        `update ${obj.type} ${field}`,
        { query, variables: { id: String(obj.id), input: { [field]: value } }, operationName: `SoakUpdate${T}` },
        { auth: this.auth.admin },
      );
      const payload = json?.data?.[`update${T}`]?.[obj.type] ?? null;
      const w: Write = {
        seq: n,
        op: 'update',
        type: obj.type,
        target: t.name,
        gen: o.gen,
        start: o.start,
        end: o.end,
        id: obj.id,
        field,
        value,
        pair,
        outcome: writeOutcome(o, payload),
        codes: o.codes,
      };
      if (w.outcome === 'success') w.shown = String(payload[field] ?? '');
      this.ledger.push(w);
      return w;
    } finally {
      this.busy.delete(key);
    }
  }

  /** The same object, its two fields, through both instances at the same moment. */
  async pair(obj: Held): Promise<void> {
    const up = this.targets.filter((t) => t.up);
    if (!up.length) return;
    const [a, b] = Math.random() < 0.5 ? [up[0]!, up[1] ?? up[0]!] : [up[1] ?? up[0]!, up[0]!];
    const [f1, f2] = FIELDS[obj.type];
    await Promise.all([this.update(a, obj, f1, true), this.update(b, obj, f2, true)]);
  }

  // ---------------------------------------------------------------- bad requests

  async malformed(): Promise<void> {
    const t = this.pick();
    if (!t) return;
    const variants: [string, () => Promise<{ o: Outcome; json: any }>][] = [
      ['bad JSON', () => this.graphql(t, 'malformed', 'bad JSON', '{"query": "{ site { name } ', {})],
      [
        'bad variables',
        () =>
          this.graphql(t, 'malformed', 'bad variables', {
            query: 'query($id: ID!) { event(id: $id) { title } }',
            variables: { id: { nested: [1, 2] } },
          }),
      ],
      [
        'missing variable',
        () =>
          this.graphql(t, 'malformed', 'missing variable', {
            query: 'query($id: ID!) { event(id: $id) { title } }',
            variables: {},
          }),
      ],
      [
        'unknown field',
        () => this.graphql(t, 'malformed', 'unknown field', { query: '{ site { name soakNoSuchField } }' }),
      ],
      [
        'syntax error',
        () => this.graphql(t, 'malformed', 'syntax error', { query: '{ events(first: ) { nodes { title } }' }),
      ],
      [
        'wrong argument type',
        () =>
          this.graphql(t, 'malformed', 'wrong argument type', {
            query: '{ events(first: "ten") { nodes { title } } }',
          }),
      ],
      ['not an object', () => this.graphql(t, 'malformed', 'not an object', '[1, 2, 3]')],
    ];
    const [, send] = variants[Math.floor(Math.random() * variants.length)]!;
    const { o } = await send();
    // An answer with data and no error to a malformed request would be the gateway's mistake.
    if (o.klass === 'ok') {
      o.klass = 'gateway';
      o.note = 'a malformed request was answered as valid';
    }
  }

  /**
   * A body over the 1 MiB cap (1.5 MiB of valid JSON), on a connection of its own:
   * expected 413. With `Expect: 100-continue` the body is sent once the server says continue
   * (or not at all, if it answers first).
   */
  oversize(expectContinue: boolean): Promise<Outcome | null> {
    const t = this.pick();
    if (!t) return Promise.resolve(null);
    const detail = expectContinue ? 'Expect: 100-continue' : 'body sent at once';
    const body = Buffer.from(
      JSON.stringify({ query: '{ site { name } }', variables: { pad: 'x'.repeat(1.5 * 2 ** 20) } }),
    );
    const start = Date.now();
    const gen = t.g.gen;
    const u = new URL(t.url);
    this.inFlight++;
    return new Promise<Outcome>((resolve) => {
      let settled = false;
      let continued = false;
      const finish = (status: number | null, text: string | null, err?: Error) => {
        if (settled) return;
        settled = true;
        this.inFlight--;
        let o: Outcome;
        if (err || status === null) {
          const said = expectContinue
            ? continued
              ? 'after 100 Continue and the body: '
              : 'before any 100 Continue: '
            : '';
          o = {
            kind: 'oversize',
            detail,
            target: t.name,
            gen,
            start,
            end: Date.now(),
            status,
            codes: [err ? transportCode(err) : 'no answer'],
            klass: 'dropped',
            note: `${said}${err?.message?.slice(0, 160) ?? 'no answer'}`,
          };
        } else {
          const c = classify(status, parseJson(text ?? ''));
          o = {
            kind: 'oversize',
            detail,
            target: t.name,
            gen,
            start,
            end: Date.now(),
            status,
            codes: c.codes,
            klass: c.klass,
            ...(c.note ? { note: c.note } : {}),
          };
          if (o.klass === 'ok' || (o.klass === 'refused' && status !== 413)) {
            o.klass = 'gateway';
            o.note = `an oversize body answered ${status}, not 413`;
          }
        }
        resolve(this.record(o));
      };
      const headers: Record<string, string | number> = {
        'content-type': 'application/json',
        'content-length': body.length,
        'user-agent': 'sitegraph-soak',
      };
      if (expectContinue) headers.expect = '100-continue';
      const req = httpRequest(
        { host: u.hostname, port: u.port, path: '/graphql', method: 'POST', headers, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => finish(res.statusCode ?? null, Buffer.concat(chunks).toString('utf8')));
          res.on('error', (e) => finish(null, null, e));
        },
      );
      req.setTimeout(30_000, () => req.destroy(new Error('no answer within 30 s')));
      req.on('error', (e) => finish(null, null, e));
      if (expectContinue) {
        req.on('continue', () => {
          continued = true;
          req.end(body);
        });
      } else req.end(body);
    });
  }

  // ---------------------------------------------------------------- admin

  /** POST /purge on an instance's admin listener: everything, or the events list's tag. */
  async purge(t: Target, all: boolean): Promise<Outcome> {
    const start = Date.now();
    const gen = t.g.gen;
    const detail = all ? 'all' : 'tags list:events';
    try {
      const res = await fetch(`${t.g.adminUrl}/purge`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(all ? { all: true } : { tags: ['list:events'] }),
        signal: AbortSignal.timeout(30_000),
      });
      const body = parseJson(await res.text());
      // 503: the shared store could not be reached (documented: nothing purged, say so).
      const klass: Klass =
        res.status === 200 && body?.purged === true ? 'ok' : res.status === 503 ? 'refused' : 'gateway';
      return this.record({
        kind: 'purge',
        detail,
        target: t.name,
        gen,
        start,
        end: Date.now(),
        status: res.status,
        codes: res.status === 200 ? [] : [`HTTP ${res.status}`],
        klass,
        ...(klass !== 'ok' ? { note: JSON.stringify(body).slice(0, 160) } : {}),
      });
    } catch (err) {
      return this.record({
        kind: 'purge',
        detail,
        target: t.name,
        gen,
        start,
        end: Date.now(),
        status: null,
        codes: [transportCode(err)],
        klass: 'dropped',
        note: (err as Error).message.slice(0, 160),
      });
    }
  }

  /** A delivery probe's write: the probe event's title through an instance. */
  async probeWrite(t: Target, id: number, title: string): Promise<Outcome> {
    const { o } = await this.graphql(
      t,
      'probe write',
      'updateEvent title',
      {
        query:
          'mutation SoakProbe($id: ID!, $title: String!) { updateEvent(id: $id, input: { title: $title }) { event { databaseId title } } }',
        variables: { id: String(id), title },
      },
      { auth: this.auth.admin },
    );
    return o;
  }

  // ---------------------------------------------------------------- reconciliation

  /**
   * Every write against the site, read directly (the sandbox's legacy REST lists, as the admin):
   * every create reported written is there once, under its ID; none reported failed is there;
   * no title is there twice; every field updated holds the value of its last update reported
   * written, or of a later one whose outcome is unknown, never a value reported failed.
   */
  async reconcile(sandbox: SandboxProcess): Promise<{ violations: Violation[]; checked: Record<string, number> }> {
    const site: Record<ObjType, Map<number, any>> = { event: new Map(), venue: new Map(), organizer: new Map() };
    const titleOf = (type: ObjType, item: any) =>
      String(type === 'event' ? item.title : type === 'venue' ? item.venue : item.organizer);
    for (const type of TYPES) {
      const path = `${type}s`;
      const window = type === 'event' ? 'start_date=1900-01-01%2000%3A00%3A00&end_date=9999-12-31%2023%3A59%3A59&' : '';
      for (let page = 1; ; page++) {
        const res = await fetch(
          `${sandbox.origin}${sandbox.prefix}/calendar/events/v1/${path}?${window}per_page=50&page=${page}`,
          { headers: { authorization: sandbox.basic('admin') } },
        );
        if (res.status === 404 && page > 1) break;
        if (!res.ok)
          throw new Error(
            `reconciliation: GET ${path} page ${page}: ${res.status} ${(await res.text()).slice(0, 200)}`,
          );
        const body: any = await res.json();
        for (const item of body[path] as any[]) site[type].set(Number(item.id), item);
        if (page >= Number(body.total_pages ?? 1)) break;
      }
    }
    const prefix = `soak-${this.run}-`;
    const byTitle = new Map<string, number[]>();
    for (const type of TYPES) {
      for (const [id, item] of site[type]) {
        const title = titleOf(type, item);
        if (!title.startsWith(prefix)) continue;
        byTitle.set(title, [...(byTitle.get(title) ?? []), id]);
      }
    }
    const violations: Violation[] = [];
    const v = (what: string, w: Write, detail: string) =>
      violations.push({
        what,
        detail: `#${w.seq} ${w.op} ${w.type}${w.id ? ` ${w.id}` : ''}${w.field ? ` ${w.field}=${JSON.stringify(w.value)}` : ''}${w.title ? ` "${w.title}"` : ''} via ${w.target} (life ${w.gen}${w.atSigterm ? ', in flight at its SIGTERM' : ''}), answered ${w.outcome}${w.codes.length ? ` [${w.codes.join(', ')}]` : ''}: ${detail}`,
      });
    const ledgered = new Set<string>();
    const checked: Record<string, number> = { creates: 0, updates: 0, fields: 0 };
    for (const w of this.ledger) {
      if (w.op !== 'create') continue;
      checked.creates!++;
      ledgered.add(w.title!);
      const ids = byTitle.get(w.title!) ?? [];
      if (ids.length > 1) v('doubled', w, `${ids.length} objects with this title on the site (${ids.join(', ')})`);
      if (w.outcome === 'success') {
        if (ids.length === 0) v('reported written, not on the site', w, 'no object with this title');
        else if (!ids.includes(w.id!))
          v('reported written under another ID', w, `the site has it as ${ids.join(', ')}`);
        if (w.shown !== w.title)
          v('answer contradicts the write', w, `the answer showed title ${JSON.stringify(w.shown)}`);
      }
      if (w.outcome === 'failed' && ids.length > 0)
        v('reported failed, but on the site', w, `the site has it as ${ids.join(', ')}`);
    }
    for (const title of byTitle.keys())
      if (!ledgered.has(title)) violations.push({ what: 'on the site, never sent', detail: title });
    // Updates: per object and field, in the order they were sent (never two at once).
    const attempts = new Map<string, Write[]>();
    for (const w of this.ledger) {
      if (w.op !== 'update') continue;
      checked.updates!++;
      const key = `${w.type}:${w.id}:${w.field}`;
      attempts.set(key, [...(attempts.get(key) ?? []), w]);
      if (w.outcome === 'success' && norm(w.type, w.field!, w.shown) !== norm(w.type, w.field!, w.value))
        v('answer contradicts the write', w, `the answer showed ${JSON.stringify(w.shown)}`);
    }
    for (const [key, list] of attempts) {
      checked.fields!++;
      const [typeS, idS, field] = key.split(':') as [ObjType, string, string];
      const type = typeS;
      const item = site[type].get(Number(idS));
      if (!item) {
        violations.push({ what: 'updated object not on the site', detail: key });
        continue;
      }
      // The legacy read shows an event's permalink as its `website` when it has none.
      const raw = type === 'event' && field === 'website' && item.website === item.url ? '' : item[field];
      const stored = norm(type, field, raw);
      list.sort((a, b) => a.seq - b.seq);
      let last = -1;
      list.forEach((w, i) => {
        if (w.outcome === 'success') last = i;
      });
      const allowed = new Set<string>([
        last >= 0 ? norm(type, field, list[last]!.value) : norm(type, field, INITIAL[type][field]),
      ]);
      for (const w of list.slice(last + 1))
        if (w.outcome === 'unknown' || w.outcome === 'not-applied') allowed.add(norm(type, field, w.value));
      if (allowed.has(stored)) continue;
      const failed = list.find((w) => w.outcome === 'failed' && norm(type, field, w.value) === stored);
      const older = list.find((w, i) => i < last && norm(type, field, w.value) === stored);
      const at = failed ?? list[last] ?? list.at(-1)!;
      if (failed) v('reported failed, but applied', failed, `the site holds ${JSON.stringify(stored)}`);
      else if (older || stored === norm(type, field, INITIAL[type][field]))
        v(
          'lost update',
          at,
          `the site holds ${JSON.stringify(stored)}, the value of an earlier write; expected one of ${[...allowed].map((a) => JSON.stringify(a)).join(', ')}`,
        );
      else
        v(
          'unexplained value',
          at,
          `the site holds ${JSON.stringify(stored)}; expected one of ${[...allowed].map((a) => JSON.stringify(a)).join(', ')}`,
        );
    }
    return { violations, checked };
  }
}

/** What a write's answer claims (docs/writes.md "Write outcomes"). */
function writeOutcome(o: Outcome, payload: any): Write['outcome'] {
  if (o.klass === 'dropped') return 'unknown';
  if (!o.codes.length) return payload?.databaseId ? 'success' : 'unknown';
  if (o.codes.includes('OUTCOME_UNKNOWN')) return 'unknown';
  if (o.codes.includes('WRITE_NOT_APPLIED')) return 'not-applied';
  if (o.codes.every((c) => FAILED.has(c))) return 'failed';
  return 'unknown';
}

/**
 * This instance's subscribers, and what each of them receives
 * (docs/subscriptions.md "Who sees what", "Limits and slow consumers").
 *
 * Every batch of changes (from the bus: a poll, or a write through any
 * instance) goes through the ledger (each change once), then, per topic, to
 * the subscribers grouped by credential: each group reads the changed objects
 * again with its credential, in one batched read, into a context shared by
 * the group for that batch; each subscriber then gets the change when the
 * object as its credential reads it passes its filter. The subscription's own
 * selection later resolves in that shared context, so nested fields are
 * loaded once per credential too, never across credentials.
 *
 * What a subscriber receives when it cannot read the object (ledger and
 * sources say what the gateway knew of it before):
 * - CREATED, UPDATED, CANCELED: nothing; but DELETED (the object left its view)
 *   when the object was public before and its statuses include PUBLISH;
 * - DELETED: DELETED with `event`/`post` null when the object was public before
 *   (or the gateway does not know) and its statuses include PUBLISH, or when it
 *   was not public and the subscriber has a credential and asks for other
 *   statuses. Its other filters cannot be checked without the object.
 * A readable object that left the subscription's statuses (unpublished) is a
 * DELETED carrying the object, when it was public before.
 *
 * Backpressure: before a change is handed to a subscriber, its connection's
 * unsent bytes and the subscriber's queue are checked; past
 * SUBSCRIPTION_MAX_BUFFER_BYTES (or MAX_QUEUE changes) every subscription of
 * the connection ends with SLOW_CONSUMER, and the connection is closed with
 * that reason: a slow client is dropped, never buffered without end.
 */
import type { Context } from '../context.ts';
import { GatewayError, isGatewayError, type GatewayCode } from '../errors.ts';
import type { Logger } from '../log.ts';
import { statusPasses, type ObjectFilter } from './filter.ts';
import { Ledger } from './ledger.ts';
import type { SubscriptionMetrics } from './metrics.ts';
import { isCredentialError, probe, reread, type LiveModel } from './reread.ts';
import { fingerprint, isPublic, type SubscriptionSettings } from './sources/source.ts';
import type { ChangeKind } from '../context.ts';
import type { Change, ChangeBatch, Topic } from './types.ts';

/** Changes queued for one subscriber, not yet taken by its transport, before it is dropped as slow. */
export const MAX_QUEUE = 1_000;
/** A dropped connection is closed this long after its subscriptions were ended, if they have not finished by then. */
const DROP_GRACE_MS = 1_000;
/** A credential the site accepted is not checked again for this long. */
const PROBE_TTL_MS = 60_000;
/** Objects whose last known visibility is remembered. */
const PUBLIC_MEMORY = 50_000;
/** Objects a subscriber was last told are gone, remembered so it is not told twice. */
const GONE_MEMORY = 10_000;
/**
 * Objects whose last copy delivered to a subscriber is remembered (by fingerprint), to tell a second save within a
 * second.
 */
const PRINT_MEMORY = 1_000;
/**
 * Subscribers handed a change between two turns of the event loop: their transports write what they
 * get only once the loop turns, so thousands handed at once would all wait for the last.
 */
const HAND_SLICE = 256;

/** One transport connection: a WebSocket, or an SSE stream (one per subscription, or one for many). */
export interface Connection {
  readonly transport: 'sse' | 'ws';
  /** Bytes handed to the socket that the client has not taken yet. */
  buffered(): number;
  /** Ends the connection, with `reason` where the protocol carries one. */
  close(reason: string): void;
}

/** What the site is told about who asks: the Authorization header, and the credential headers the graph reads. */
export interface Credential {
  /** A hash of all of it: subscribers with the same key read as one. */
  readonly key: string;
  readonly authorization: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

export type Delivery = { change: Change; model: LiveModel | null; context: Context } | { error: GatewayError };

export interface OpenRequest {
  topic: Topic;
  filter: ObjectFilter<never>;
  credential: Credential;
  connection: Connection;
  /** Who counts against SUBSCRIPTION_MAX_PER_CALLER (ratelimit.ts clientKey). */
  caller: string;
}

export interface HubDeps {
  settings: SubscriptionSettings;
  metrics: SubscriptionMetrics;
  log: Logger;
  /** A context for a credential: its own session and loaders (no cache). `subscribers` share it. */
  contextFor(credential: Credential, subscribers: number): Promise<Context>;
  /** A change made on the site (not through the gateway): the upstream cache forgets what it changed. */
  invalidate?(change: Change): void;
}

export class Subscriber implements AsyncIterableIterator<Delivery> {
  readonly #queue: Delivery[] = [];
  /**
   * IDs whose last delivery was DELETED: a second one in a row says nothing (two sources, or a save of the trashed
   * object).
   */
  readonly #told = new Set<number>();
  /** What the last copy of each object delivered looked like (`fingerprint:modified`). */
  readonly #prints = new Map<number, string>();
  #wake: (() => void) | null = null;
  #finished = false;
  #gone = false;

  constructor(
    readonly request: OpenRequest,
    private readonly onGone: (s: Subscriber) => void,
  ) {}

  get topic(): Topic {
    return this.request.topic;
  }
  get filter(): ObjectFilter<LiveModel> {
    return this.request.filter as ObjectFilter<LiveModel>;
  }
  get queued(): number {
    return this.#queue.length;
  }
  /** True once it takes nothing more. */
  get ended(): boolean {
    return this.#finished || this.#gone;
  }

  push(d: Delivery): void {
    if (this.ended) return;
    this.#queue.push(d);
    this.#wakeUp();
  }

  /** The last copy of object `id` delivered, as `copyPrint` says it; undefined when none is remembered. */
  printOf(id: number): string | undefined {
    return this.#prints.get(id);
  }

  /** Remembers the copy of object `id` just delivered. */
  delivered(id: number, print: string): void {
    this.#prints.delete(id);
    this.#prints.set(id, print);
    if (this.#prints.size > PRINT_MEMORY) this.#prints.delete(this.#prints.keys().next().value!);
  }

  /**
   * Whether a change of object `id` of this kind tells this subscriber something (not a second DELETED in a row);
   * records it.
   */
  tells(id: number, kind: ChangeKind): boolean {
    if (kind !== 'DELETED') return this.#told.delete(id) || true;
    if (this.#told.has(id)) return false;
    this.#told.add(id);
    if (this.#told.size > GONE_MEMORY) this.#told.delete(this.#told.values().next().value!);
    return true;
  }

  /** Ends after what is queued: the transport sends the last changes, then `complete`. */
  finish(): void {
    this.#finished = true;
    this.#wakeUp();
  }

  /** Ends with `error` as its last result, whatever was queued before. */
  fail(error: GatewayError): void {
    if (this.ended) return;
    this.#queue.length = 0;
    this.#queue.push({ error });
    this.finish();
  }

  async next(): Promise<IteratorResult<Delivery>> {
    for (;;) {
      const d = this.#queue.shift();
      if (d) return { value: d, done: false };
      if (this.ended) {
        this.#leave();
        return { value: undefined, done: true };
      }
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  /** The client unsubscribed, or its connection closed. */
  async return(): Promise<IteratorResult<Delivery>> {
    this.#queue.length = 0;
    this.#leave();
    this.#wakeUp();
    return { value: undefined, done: true };
  }

  async throw(err: unknown): Promise<IteratorResult<Delivery>> {
    await this.return();
    throw err;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  #leave(): void {
    if (this.#gone) return;
    this.#gone = true;
    this.onGone(this);
  }

  #wakeUp(): void {
    const w = this.#wake;
    this.#wake = null;
    w?.();
  }
}

interface ConnectionState {
  open: Set<Subscriber>;
  dropped: string | null;
}

export class Hub {
  readonly ledger = new Ledger();
  readonly #subs: Record<Topic, Set<Subscriber>> = { events: new Set(), posts: new Set() };
  readonly #callers = new Map<string, number>();
  readonly #connections = new Map<Connection, ConnectionState>();
  readonly #probed = new Map<string, number>();
  readonly #public = new Map<string, boolean>();
  #chain: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(private readonly deps: HubDeps) {}

  interested(topic: Topic): boolean {
    return this.#subs[topic].size > 0;
  }

  get size(): number {
    return this.#subs.events.size + this.#subs.posts.size;
  }

  /** Whether the object was public when this instance last read it; null when it never did. */
  wasPublic(topic: Topic, id: number): boolean | null {
    return this.#public.get(`${topic}:${id}`) ?? null;
  }

  /**
   * Checks the credential once a minute (a wrong password is refused now, not at the first change),
   * applies the limits, and registers the subscriber.
   */
  async open(req: OpenRequest, ctx: Context): Promise<Subscriber> {
    if (this.#closed)
      throw new GatewayError('UPSTREAM_UNAVAILABLE', 'The gateway is shutting down; subscribe again in a moment.');
    const { settings, metrics } = this.deps;
    if ((this.#probed.get(req.credential.key) ?? 0) < Date.now()) {
      try {
        await probe(ctx, req.topic);
        this.#probed.set(req.credential.key, Date.now() + PROBE_TTL_MS);
        if (this.#probed.size > 10_000) this.#probed.delete(this.#probed.keys().next().value!);
      } catch (err) {
        // The credential, or a site without what is followed, decide here; a site that is down now may be up at the
        // next change.
        if (isCredentialError(err) || (isGatewayError(err) && err.code === 'NAMESPACE_UNAVAILABLE')) throw err;
      }
    }
    const conn = this.#connection(req.connection);
    if (conn.dropped) throw new GatewayError('SLOW_CONSUMER', conn.dropped);
    if (conn.open.size >= settings.maxPerConnection) {
      metrics.refused.inc({ limit: 'connection' });
      throw limitError(
        `This connection already holds ${conn.open.size} subscriptions, the most one may (SUBSCRIPTION_MAX_PER_CONNECTION); end one, or open another connection.`,
        'connection',
        settings.maxPerConnection,
      );
    }
    const held = this.#callers.get(req.caller) ?? 0;
    if (held >= settings.maxPerCaller) {
      metrics.refused.inc({ limit: 'caller' });
      throw limitError(
        `You already hold ${held} subscriptions on this instance, the most one caller may (SUBSCRIPTION_MAX_PER_CALLER); end one first.`,
        'caller',
        settings.maxPerCaller,
      );
    }
    const s = new Subscriber(req, (gone) => this.#forget(gone));
    this.#subs[req.topic].add(s);
    conn.open.add(s);
    this.#callers.set(req.caller, held + 1);
    metrics.subscribers.inc({ topic: req.topic, transport: req.connection.transport });
    return s;
  }

  #connection(c: Connection): ConnectionState {
    let state = this.#connections.get(c);
    if (!state) this.#connections.set(c, (state = { open: new Set(), dropped: null }));
    return state;
  }

  #forget(s: Subscriber): void {
    const { request: req } = s;
    this.#subs[req.topic].delete(s);
    const n = (this.#callers.get(req.caller) ?? 1) - 1;
    if (n > 0) this.#callers.set(req.caller, n);
    else this.#callers.delete(req.caller);
    this.deps.metrics.subscribers.dec({ topic: req.topic, transport: req.connection.transport });
    const conn = this.#connections.get(req.connection);
    if (!conn) return;
    conn.open.delete(s);
    if (conn.open.size === 0) {
      this.#connections.delete(req.connection);
      if (conn.dropped) req.connection.close(conn.dropped);
    }
  }

  /** The transport's connection closed: nothing more goes to it (its subscriptions are returned by the transport). */
  disconnected(c: Connection): void {
    const conn = this.#connections.get(c);
    if (conn) for (const s of [...conn.open]) void s.return();
  }

  /** Ends every subscription of a connection whose client does not keep up, then closes it. */
  drop(c: Connection, reason: string): void {
    const conn = this.#connection(c);
    if (conn.dropped) return;
    conn.dropped = reason;
    this.deps.metrics.drops.inc({ reason: 'slow_consumer' });
    this.deps.log.warn(
      { transport: c.transport, subscriptions: conn.open.size, buffered: c.buffered() },
      'subscriptions: a slow consumer was dropped',
    );
    const error = new GatewayError('SLOW_CONSUMER', reason);
    for (const s of conn.open) s.fail(error);
    if (conn.open.size === 0) c.close(reason);
    else setTimeout(() => c.close(reason), DROP_GRACE_MS).unref();
  }

  /** A batch from the bus; batches are handled one after another, in the order they came. */
  receive(batch: ChangeBatch): Promise<void> {
    this.#chain = this.#chain
      .then(() => this.#process(batch))
      .catch((err: unknown) =>
        this.deps.log.error({ err }, 'subscriptions: a batch of changes could not be delivered'),
      );
    return this.#chain;
  }

  async #process(batch: ChangeBatch): Promise<void> {
    const { metrics } = this.deps;
    const fresh: Fresh[] = [];
    for (const c of batch.changes) {
      const verdict = this.ledger.record(c);
      metrics.changes.inc({ source: c.source, outcome: verdict === 'old' ? 'duplicate' : verdict });
      if (verdict !== 'old' && !c.merge) fresh.push({ ...c, maybe: verdict === 'maybe' });
    }
    for (const c of fresh) if (c.source !== 'GATEWAY' && !c.maybe) this.deps.invalidate?.(c);
    await Promise.all(
      (['events', 'posts'] as const).map(async (topic) => {
        const changes = fresh.filter((c) => c.topic === topic);
        if (!changes.length || !this.#subs[topic].size) return;
        const groups = new Map<string, Subscriber[]>();
        for (const s of this.#subs[topic]) {
          const g = groups.get(s.request.credential.key);
          if (g) g.push(s);
          else groups.set(s.request.credential.key, [s]);
        }
        await Promise.all([...groups.values()].map((g) => this.#deliver(topic, changes, g, batch.at)));
      }),
    );
  }

  async #deliver(
    topic: Topic,
    changes: readonly Fresh[],
    subs: readonly Subscriber[],
    publishedAt: number,
  ): Promise<void> {
    const wanted = changes.filter((c) => subs.some((s) => !s.filter.ids || s.filter.ids.has(c.id)));
    if (!wanted.length) return;
    const ids = [...new Set(wanted.map((c) => c.id))];
    let ctx: Context;
    let models: Map<number, LiveModel | null>;
    try {
      ctx = await this.deps.contextFor(subs[0]!.request.credential, subs.length);
      models = await reread(ctx, topic, ids);
    } catch (err) {
      if (isCredentialError(err)) {
        for (const s of subs) s.fail(err);
        this.deps.metrics.drops.inc({ reason: 'credentials' }, subs.length);
        return;
      }
      const code: GatewayCode = isGatewayError(err) ? err.code : 'UPSTREAM_UNAVAILABLE';
      const error = new GatewayError(
        code,
        `The ${topic} that changed (${ids.join(', ')}) could not be read: ${(err as Error).message}. The subscription goes on.`,
        {
          ...(isGatewayError(err) && err.extensions.upstream ? { upstream: err.extensions.upstream } : {}),
        },
      );
      for (const s of subs) s.push({ error });
      return;
    }
    for (const [id, m] of models) if (m) this.#remember(topic, id, isPublic(m));
    let handed = 0;
    for (const { maybe, ...c } of wanted) {
      const model = models.get(c.id) ?? null;
      const print = copyPrint(model);
      for (const s of subs) {
        if (++handed % HAND_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
        if (s.ended || (s.filter.ids && !s.filter.ids.has(c.id))) continue;
        let kind = await decide(ctx, s, c, model);
        if (!kind) continue;
        if (kind === 'CREATED' || kind === 'UPDATED') {
          // The copy this subscriber already has is no news (the same save seen twice, or a later
          // save it already got); when the ledger only thinks it may be news, only a different copy is.
          const last = s.printOf(c.id);
          if (last === print) continue;
          if (maybe && kind === 'CREATED' && last !== undefined) kind = 'UPDATED';
        }
        if (!s.tells(c.id, kind)) continue;
        s.delivered(c.id, print);
        this.#hand(s, { change: kind === c.kind ? c : { ...c, kind }, model, context: ctx }, publishedAt);
      }
    }
  }

  #hand(s: Subscriber, d: Delivery & { change: Change }, publishedAt: number): void {
    const { connection } = s.request;
    if (this.#connections.get(connection)?.dropped) return;
    const { settings, metrics } = this.deps;
    if (connection.buffered() > settings.maxBufferBytes || s.queued >= MAX_QUEUE) {
      const what = s.queued >= MAX_QUEUE ? `${s.queued} changes` : `${connection.buffered()} bytes`;
      this.drop(
        connection,
        `Slow consumer: ${what} were waiting for this client (SUBSCRIPTION_MAX_BUFFER_BYTES ${settings.maxBufferBytes}); the subscription was ended. Subscribe again, and read faster.`,
      );
      return;
    }
    s.push(d);
    metrics.deliveries.inc({ topic: s.topic, kind: d.change.kind });
    metrics.deliveryDelay.observe({ topic: s.topic }, Math.max(0, (Date.now() - publishedAt) / 1000));
  }

  #remember(topic: Topic, id: number, pub: boolean): void {
    const key = `${topic}:${id}`;
    this.#public.delete(key);
    this.#public.set(key, pub);
    if (this.#public.size > PUBLIC_MEMORY) this.#public.delete(this.#public.keys().next().value!);
  }

  /** Shutdown: every subscription completes (after what is queued); new ones are refused. */
  close(): void {
    this.#closed = true;
    const all = [...this.#subs.events, ...this.#subs.posts];
    if (all.length) this.deps.metrics.drops.inc({ reason: 'shutdown' }, all.length);
    for (const s of all) s.finish();
  }
}

/** A change, and whether the ledger only thinks it may be news (`maybe`). */
type Fresh = Change & { maybe: boolean };

/**
 * A copy of an object as a subscriber got it: its fingerprint and modification time; `gone` when it could not read it.
 */
function copyPrint(m: LiveModel | null): string {
  return m ? `${fingerprint(m)}:${m.modifiedAtUtc ?? ''}` : 'gone';
}

function limitError(message: string, limit: 'connection' | 'caller', max: number): GatewayError {
  return new GatewayError('SUBSCRIPTION_LIMIT', message, { limit, max });
}

const passes = async (r: boolean | Promise<boolean>) => (typeof r === 'boolean' ? r : await r);

/** What `s` receives of `c`, given the object as its credential reads it (null: it cannot); null: nothing. */
async function decide(ctx: Context, s: Subscriber, c: Change, model: LiveModel | null): Promise<ChangeKind | null> {
  const f = s.filter;
  const publicBefore = c.wasPublic === true && statusPasses(f, 'publish');
  if (model) {
    // A trashed copy still readable (editors): the filter's fields decide, not its statuses.
    if (c.kind === 'DELETED') return (await passes(f.fields(ctx, model))) ? 'DELETED' : null;
    if (statusPasses(f, model.status)) return (await passes(f.fields(ctx, model))) ? c.kind : null;
    return publicBefore && (await passes(f.fields(ctx, model))) ? 'DELETED' : null;
  }
  if (c.kind !== 'DELETED') return publicBefore ? 'DELETED' : null;
  if (c.wasPublic === false) {
    const others = f.statuses === null || [...f.statuses].some((x) => x !== 'publish');
    return others && s.request.credential.authorization !== undefined ? 'DELETED' : null;
  }
  return statusPasses(f, 'publish') ? 'DELETED' : null;
}

/**
 * The soak's subscribers (bench/soak.ts), graphql-sse and graphql-ws clients
 * from node_modules, in the driver's process:
 *
 * - watchers: on each instance, one SSE (anonymous) and one WebSocket (the
 *   editor) subscription to every event change, held for the whole run and
 *   opened again whenever they end (an instance restarting). Each records when
 *   each title reached it, which the delivery probes read.
 * - churn: short-lived subscriptions to a random instance (SSE in both of
 *   graphql-sse's modes, WebSocket), anonymous or the editor, each dropped
 *   after a few seconds: disposed as a client does, or its socket destroyed.
 */
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { Agent, fetch as undiciFetch } from 'undici';
import WebSocket from 'ws';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface SubTarget {
  name: string;
  url: string;
  /** False while the instance is being restarted: nothing new is opened on it. */
  up: boolean;
}

const WATCH = 'subscription SoakWatch { eventChanged { kind databaseId event { title } } }';
const CHURN_QUERIES = [
  'subscription SoakChurn { eventChanged { kind databaseId at event { title startDate venues { title } } } }',
  'subscription SoakChurnFeatured { eventChanged(where: { featured: true }) { kind event { title } } }',
  'subscription SoakChurnPosts { postChanged { kind post { title status } } }',
];

type Transport = 'sse' | 'sse-single' | 'ws';

export interface Watcher {
  name: string;
  target: SubTarget;
  transport: 'sse' | 'ws';
  auth: string | undefined;
  /** When it was subscribed: [from, to], `to` null while open. */
  intervals: { from: number; to: number | null }[];
  /** Title -> when it first arrived. */
  arrivals: Map<string, number>;
  /** Every change of a probe event that reached it, with the title it carried. */
  probeDeliveries: { id: number; title: string | null; at: number }[];
  /** How each subscription ended (complete, error message). */
  endings: Map<string, number>;
  stop: (() => void) | null;
}

/** A subscription opened by the driver, for the count each instance should report. */
interface Open {
  target: SubTarget;
  connected: boolean;
}

export interface ChurnStats {
  opened: number;
  connected: number;
  droppedPolitely: number;
  droppedAbruptly: number;
  /** Ended by the server before the driver dropped it, by reason. */
  endedByServer: Record<string, number>;
  /** Failed to open, by reason. */
  failedToOpen: Record<string, number>;
}

export class Subscribers {
  readonly watchers: Watcher[] = [];
  private readonly open = new Set<Open>();
  private stopped = false;
  private readonly churning = new Set<() => void>();
  readonly churn: ChurnStats = {
    opened: 0,
    connected: 0,
    droppedPolitely: 0,
    droppedAbruptly: 0,
    endedByServer: {},
    failedToOpen: {},
  };
  /** Ends seen while an instance was being restarted (excused), by instance. */
  readonly endedAtRestart: Record<string, number> = {};

  /**
   * graphql-sse's requests go through an agent of their own, closed at the end, so no idle socket of the driver's stays
   * open.
   */
  private readonly agent = new Agent({ connections: 64 });
  private readonly fetchFn = (input: string | URL, init?: Parameters<typeof undiciFetch>[1]) =>
    undiciFetch(input, { ...init, dispatcher: this.agent });

  constructor(
    private readonly targets: SubTarget[],
    private readonly editor: string,
    /** The events the delivery probes change: every change of them is recorded, whatever its title. */
    private readonly probeIds: Set<number>,
  ) {}

  /** Subscriptions the driver has open (connected) on an instance now. */
  openOn(name: string): number {
    let n = 0;
    for (const o of this.open) if (o.target.name === name && o.connected) n++;
    return n;
  }

  startWatchers(): void {
    for (const target of this.targets) {
      for (const [transport, auth] of [
        ['sse', undefined],
        ['ws', this.editor],
      ] as const) {
        const w: Watcher = {
          name: `${target.name}-${transport}-${auth ? 'editor' : 'anonymous'}`,
          target,
          transport,
          auth,
          intervals: [],
          arrivals: new Map(),
          probeDeliveries: [],
          endings: new Map(),
          stop: null,
        };
        this.watchers.push(w);
        void this.watch(w);
      }
    }
  }

  /** Resolves once every watcher is subscribed (or after `ms`). */
  async watchersReady(ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (this.watchers.every((w) => w.intervals.at(-1)?.to === null)) return true;
      await sleep(100);
    }
    return false;
  }

  private async watch(w: Watcher): Promise<void> {
    while (!this.stopped) {
      if (!w.target.up) {
        await sleep(250);
        continue;
      }
      const entry: Open = { target: w.target, connected: false };
      this.open.add(entry);
      const ending = await new Promise<string>((resolve) => {
        const onNext = (data: any) => {
          const change = data?.eventChanged;
          const title = change?.event?.title;
          const at = Date.now();
          if (typeof title === 'string' && !w.arrivals.has(title)) w.arrivals.set(title, at);
          if (this.probeIds.has(change?.databaseId))
            w.probeDeliveries.push({ id: change.databaseId, title: typeof title === 'string' ? title : null, at });
        };
        const connected = () => {
          if (entry.connected) return;
          entry.connected = true;
          w.intervals.push({ from: Date.now(), to: null });
        };
        const subscription = this.subscribe(w.transport === 'sse' ? 'sse' : 'ws', w.target, w.auth, WATCH, {
          next: onNext,
          connected,
          end: resolve,
        });
        w.stop = () => {
          subscription.polite();
          resolve('stopped');
        };
      });
      this.open.delete(entry);
      const last = w.intervals.at(-1);
      if (entry.connected && last && last.to === null) last.to = Date.now();
      w.stop = null;
      w.endings.set(ending, (w.endings.get(ending) ?? 0) + 1);
      if (!this.stopped) await sleep(1_000);
    }
  }

  /** Opens one short-lived subscription on a random instance that is up, dropped after `lifeMs`. */
  churnOne(lifeMs: number): void {
    if (this.stopped) return;
    const up = this.targets.filter((t) => t.up);
    if (!up.length) return;
    const target = up[Math.floor(Math.random() * up.length)]!;
    const transports: Transport[] = ['sse', 'sse-single', 'ws'];
    const transport = transports[Math.floor(Math.random() * transports.length)]!;
    const auth = Math.random() < 0.5 ? this.editor : undefined;
    const query = CHURN_QUERIES[Math.floor(Math.random() * CHURN_QUERIES.length)]!;
    const entry: Open = { target, connected: false };
    this.open.add(entry);
    this.churn.opened++;
    let ended = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      ended = true;
      clearTimeout(timer);
      this.open.delete(entry);
      this.churning.delete(drop);
    };
    const sub = this.subscribe(transport, target, auth, query, {
      next: () => {},
      connected: () => {
        if (!entry.connected) this.churn.connected++;
        entry.connected = true;
      },
      end: (reason) => {
        if (ended) return;
        finish();
        // While its instance is restarted, the server ending it is expected.
        if (!target.up) this.endedAtRestart[target.name] = (this.endedAtRestart[target.name] ?? 0) + 1;
        else if (entry.connected) this.churn.endedByServer[reason] = (this.churn.endedByServer[reason] ?? 0) + 1;
        else this.churn.failedToOpen[reason] = (this.churn.failedToOpen[reason] ?? 0) + 1;
      },
    });
    const drop = () => {
      if (ended) return;
      finish();
      // Half are dropped as a client does (dispose: the stream closed, the WebSocket's `complete` and close 1000),
      // half by destroying the connection under it, as a crashed client or a dead network does.
      if (Math.random() < 0.5) {
        this.churn.droppedPolitely++;
        sub.polite();
      } else {
        this.churn.droppedAbruptly++;
        sub.abrupt();
      }
    };
    this.churning.add(drop);
    timer = setTimeout(drop, lifeMs);
  }

  /** Drops every churn subscription and stops the watchers. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const drop of [...this.churning]) drop();
    for (const w of this.watchers) w.stop?.();
    await sleep(500);
    await this.agent.close().catch(() => {});
  }

  private subscribe(
    transport: Transport,
    target: SubTarget,
    auth: string | undefined,
    query: string,
    on: { next: (data: unknown) => void; connected: () => void; end: (reason: string) => void },
  ): { polite: () => void; abrupt: () => void } {
    if (transport === 'ws') {
      let socket: WebSocket | null = null;
      const client = createWsClient({
        url: target.url.replace(/^http/, 'ws'),
        webSocketImpl: WebSocket,
        connectionParams: auth ? { Authorization: auth } : {},
        retryAttempts: 0,
        lazyCloseTimeout: 0,
        on: {
          connected: (s) => {
            socket = s as WebSocket;
          },
        },
      });
      let done = false;
      const end = (reason: string) => {
        if (done) return;
        done = true;
        on.end(reason);
        void client.dispose();
      };
      const unsubscribe = client.subscribe(
        { query },
        {
          next: (r) => {
            on.connected();
            on.next(r.data);
          },
          error: (e) => end(`error: ${describe(e)}`),
          complete: () => end('complete'),
        },
      );
      // graphql-ws says nothing when the server has accepted a subscription: connected means acknowledged here.
      client.on('connected', () => on.connected());
      return {
        polite: () => {
          done = true;
          unsubscribe();
          void client.dispose();
        },
        abrupt: () => {
          done = true;
          if (socket) socket.terminate();
          else void client.dispose();
        },
      };
    }
    const controller = { dispose: () => {} };
    const client = createSseClient({
      url: target.url,
      headers: auth ? { authorization: auth } : {},
      retryAttempts: 0,
      fetchFn: this.fetchFn,
      singleConnection: transport === 'sse-single' ? true : false,
      ...(transport === 'sse-single' ? { on: { connected: () => on.connected() } } : {}),
    } as Parameters<typeof createSseClient>[0]);
    let done = false;
    const end = (reason: string) => {
      if (done) return;
      done = true;
      on.end(reason);
      client.dispose();
    };
    controller.dispose = client.subscribe(
      { query },
      {
        next: (r) => {
          on.connected();
          on.next(r.data);
        },
        error: (e) => end(`error: ${describe(e)}`),
        complete: () => end('complete'),
      },
      ...(transport === 'sse' ? [{ connected: () => on.connected() }] : []),
    );
    return {
      // Distinct connections: the stream's request is aborted either way. Single connection: the
      // operation is ended first (its DELETE), then the stream.
      polite: () => {
        done = true;
        controller.dispose();
        setTimeout(() => client.dispose(), 200);
      },
      abrupt: () => {
        done = true;
        client.dispose();
      },
    };
  }
}

function describe(e: unknown): string {
  if (Array.isArray(e))
    return e
      .map(
        (x) =>
          (x as { extensions?: { code?: string }; message?: string }).extensions?.code ??
          (x as { message?: string }).message ??
          String(x),
      )
      .join(', ');
  if (e instanceof Error) return `${(e as NodeJS.ErrnoException).code ?? e.name}`;
  if (e && typeof e === 'object' && 'code' in e) return `close ${(e as { code: number }).code}`;
  return String(e).slice(0, 80);
}

/**
 * Which calendar interface serves a request: the one rule, called by the
 * reads (where.ts: lists), the writes (writes/plan.ts `chooseApi`), the
 * loaders (by ID) and the cross-interface fields (resolvers/fields.ts). Pure:
 * its inputs are what the site offers and what the request needs, and a
 * refusal is a value the caller turns into its own error.
 *
 * In order:
 * 1. what pins the request to one interface (`only`: an argument only it
 *    applies, a route or copy only it has); pins on both sides conflict, and a
 *    pin to an interface the site does not offer is refused;
 * 2. the interfaces the site offers, less those the other side's pins rule out;
 * 3. declared arguments: an interface whose route does not declare a
 *    parameter the request would send is out (WordPress drops an undeclared
 *    argument without a word);
 * 4. fields served: of those left, the ones that serve every field the
 *    request needs (served.ts) go first;
 * 5. `prefer` decides between two that are still equal.
 */
import { serves, type CalendarKind } from './served.ts';
import { INTERFACES, offers, other, type Iface, type Offer } from './vocabulary.ts';

export interface Need {
  /**
   * What only one interface can give: the arguments (as the caller names them
   * in its messages) that only it applies, or a copy only it has.
   */
  readonly only?: { readonly [I in Iface]?: readonly string[] };
  /**
   * The parameters the request would send through `iface` that its route does
   * not declare in the site's root index (none when the index does not say).
   */
  readonly undeclared?: (iface: Iface) => readonly string[];
  /** The graph type whose `fields` are needed (served.ts). */
  readonly type?: CalendarKind;
  /** The fields the request needs served (a list's selection, a field one copy lacks). */
  readonly fields?: Iterable<string>;
  /** Which interface wins when the rest leaves both. */
  readonly prefer: Iface;
}

export type Choice =
  /** `servesFields`: whether the interface chosen serves every field needed (false when none left does). */
  | { readonly iface: Iface; readonly servesFields: boolean }
  /** Pins on both sides. */
  | { readonly refused: 'conflict'; readonly legacy: readonly string[]; readonly core: readonly string[] }
  /** Pinned to an interface the site does not offer; `args` are the pins. */
  | { readonly refused: 'absent'; readonly needs: Iface; readonly args: readonly string[] }
  /** The site offers neither interface. */
  | { readonly refused: 'neither' }
  /** Every interface left lacks a declared parameter; per interface, which. */
  | {
      readonly refused: 'undeclared';
      readonly routes: readonly { readonly iface: Iface; readonly params: readonly string[] }[];
    };

export type Refusal = Extract<Choice, { refused: string }>;

export function chooseInterface(site: Offer, need: Need): Choice {
  const legacy = need.only?.legacy ?? [];
  const core = need.only?.core ?? [];
  if (legacy.length && core.length) return { refused: 'conflict', legacy, core };
  for (const [iface, args] of [
    ['legacy', legacy],
    ['core', core],
  ] as const) {
    if (args.length && !offers(site, iface)) return { refused: 'absent', needs: iface, args };
  }
  const offered = INTERFACES.filter((i) => offers(site, i) && !need.only?.[other(i)]?.length);
  if (!offered.length) return { refused: 'neither' };
  const ok: Iface[] = [];
  const routes: { iface: Iface; params: readonly string[] }[] = [];
  for (const iface of offered) {
    const params = need.undeclared?.(iface) ?? [];
    if (params.length) routes.push({ iface, params });
    else ok.push(iface);
  }
  if (!ok.length) return { refused: 'undeclared', routes };
  const fields = need.fields ? [...need.fields] : [];
  const type = need.type;
  const servesAll = (i: Iface) => type === undefined || fields.every((f) => serves(i, type, f));
  const serving = ok.filter(servesAll);
  const pool = serving.length ? serving : ok;
  const iface = pool.includes(need.prefer) ? need.prefer : pool[0]!;
  return { iface, servesFields: servesAll(iface) };
}

/**
 * The interface chosen, or `fallback` when the choice is refused (for callers whose refusal is raised later, by the
 * route gate).
 */
export function chosenOr(choice: Choice, fallback: Iface): Iface {
  return 'refused' in choice ? fallback : choice.iface;
}

/** A model read through one interface: which kind, which interface. */
export interface Copy {
  kind: CalendarKind;
  source: Iface;
}

/**
 * The interface the copy of `m` that has `fields` is read through: the other
 * one, when the site offers it and it can serve them; else null, and no
 * request. Cross-interface fields (resolvers/fields.ts) and the subscription
 * filters (subscriptions/filter.ts) both ask it.
 */
export function otherCopy(site: Offer, m: Copy, fields: readonly string[] = []): Iface | null {
  const there = other(m.source);
  const copy = [`the ${there} copy`];
  const c = chooseInterface(site, {
    type: m.kind,
    fields,
    only: there === 'core' ? { core: copy } : { legacy: copy },
    prefer: there,
  });
  return 'refused' in c || !c.servesFields ? null : c.iface;
}

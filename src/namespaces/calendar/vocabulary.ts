/**
 * The calendar's vocabulary: its two interfaces, the kinds of objects each
 * serves, their namespaces (the spec's names and the plugins' own), and the
 * path prefixes every calendar request is built from. Everything in the
 * gateway that says "legacy" or "core", or builds a calendar path, takes it
 * from here (paths.ts builds the paths). Below this folder, upstream/ spells
 * the two namespaces itself where it must: discovery.ts (`hasLegacy`,
 * `hasCore`) and names.ts (the plugins' names, read here).
 *
 * The Events Calendar serves the same events, venues, organizers, categories
 * and tags through two parallel REST interfaces (docs/real-sites.md):
 * - `legacy`: `calendar/events/v1` (the plugin's `tribe/events/v1`), every
 *   release; envelopes, `include=`, by-slug routes, the only term routes;
 * - `core`: `calendar-core/v1` (the plugin's `tec/v1`), 6.15 and later; bare
 *   arrays, series, the experimental-acknowledgement header.
 */
import type { Source } from '../../mapping/models.ts';
import { NAMESPACE_RENAMES } from '../../upstream/names.ts';

/**
 * An interface of the calendar. The union itself is `Source` of
 * mapping/models.ts, the interface a model was read through: the models
 * codegen maps onto import nothing above mapping/, so it is spelled there once
 * and named here.
 */
export type Iface = Source;

/** Both interfaces, legacy first (the order lists are tried in when nothing else decides). */
export const INTERFACES: readonly Iface[] = ['legacy', 'core'];

/** The other interface: where a field one copy lacks is read, and a follow-up write goes. */
export const other = (iface: Iface): Iface => (iface === 'core' ? 'legacy' : 'core');

/** Each interface's namespace, as the spec (and the gateway's code) names it. */
export const NAMESPACE: Readonly<Record<Iface, string>> = { legacy: 'calendar/events/v1', core: 'calendar-core/v1' };

/** Each interface's path prefix (`/calendar-core/v1`): the start of every path and route label of it. */
export const PREFIX: Readonly<Record<Iface, string>> = { legacy: `/${NAMESPACE.legacy}`, core: `/${NAMESPACE.core}` };

/**
 * Each interface's namespace as the plugin itself serves it (`tribe/events/v1`,
 * `tec/v1`), from the one table of renames (upstream/names.ts, which serves
 * every namespace and is read by discovery below this folder, so the rows stay
 * there). A site may serve either name, or both (docs/real-sites.md,
 * "Namespace names").
 */
export const PLUGIN_NAMESPACE: Readonly<Record<Iface, string>> = {
  legacy: pluginName(NAMESPACE.legacy),
  core: pluginName(NAMESPACE.core),
};

function pluginName(spec: string): string {
  const row = NAMESPACE_RENAMES.find((r) => r.spec === spec);
  if (!row) throw new TypeError(`upstream/names.ts has no plugin name for ${spec}`);
  return row.plugin;
}

/** The kinds of calendar objects, as their REST collections name them. */
export const KINDS = ['events', 'venues', 'organizers', 'categories', 'tags', 'series'] as const;
export type Kind = (typeof KINDS)[number];

/** The kinds each interface serves: terms only through legacy, series only through core. */
export const KINDS_OF = {
  legacy: ['events', 'venues', 'organizers', 'categories', 'tags'],
  core: ['events', 'venues', 'organizers', 'series'],
} as const satisfies Record<Iface, readonly Kind[]>;
export type LegacyKind = (typeof KINDS_OF.legacy)[number];
export type CoreKind = (typeof KINDS_OF.core)[number];

/** The post kinds (both interfaces read and write them; by-slug routes on legacy). */
export type PostKind = 'events' | 'venues' | 'organizers';
/** The term kinds (legacy only). */
export type TermKind = 'categories' | 'tags';
/** What a write can address: the post kinds through either interface, the terms through legacy. */
export type WriteKind = PostKind | TermKind;

/** The graph type of each post kind (what served.ts, the interface choice and cross-interface fields key on). */
export const TYPE_OF = { events: 'Event', venues: 'Venue', organizers: 'Organizer' } as const satisfies Record<
  PostKind,
  string
>;
export type PostType = (typeof TYPE_OF)[PostKind];

/** Whether the site offers `iface` (its namespace is in the root index). */
export function offers(site: Offer, iface: Iface): boolean {
  return iface === 'core' ? site.hasCore : site.hasLegacy;
}

/** What a site offers of the calendar: which interfaces its root index lists (a SiteInfo is one). */
export interface Offer {
  readonly hasLegacy: boolean;
  readonly hasCore: boolean;
}

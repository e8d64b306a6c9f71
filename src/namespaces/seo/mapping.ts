/**
 * `seo/v1` JSON <-> graph objects (pure; no I/O). Shapes follow
 * docs/upstream-answers.md "Yoast" and docs/graph-seo.md;
 * docs/sandbox-seo.md says what the sandbox decides where those are silent.
 * Yoast wraps many answers in `{json: ...}` and puts a `status` inside 200
 * bodies; `unwrap` and `actionResult` own those differences.
 */
import type {
  Redirect,
  RedirectFormat,
  RedirectOutcome,
  RedirectResult,
  RedirectSettings,
  RedirectType,
  SeoActionResult,
  SeoAvailablePost,
  SeoContentForWords,
  SeoCornerstoneData,
  SeoFileSize,
  SeoHead,
  SeoIndexable,
  SeoIndexingBatch,
  SeoKeyphraseResults,
  SeoKeywordResearchAuth,
  SeoLinkSuggestion,
  SeoMetaField,
  SeoProminentWordsContent,
  SeoRankCount,
  SeoScoreSummary,
  SeoSetupStage,
  SeoSetupStepsInput,
  SeoSiteRepresentationInput,
  SeoStatistics,
  SeoTask,
  SeoWorkout,
  SeoWorkoutInput,
  SeoWorkoutLinkSuggestion,
  SeoWorkouts,
} from '../../generated/graphql.ts';
import { cleanText, unescapeUrl } from '../../mapping/text.ts';
import { UpstreamShapeError, arr, bool, int, isJson, num, obj, str, type Json } from '../../mapping/json.ts';

// ---------------------------------------------------------------------------
// Payloads (what routes.ts sends)

export type RedirectFormatParam = 'plain' | 'regex';

export interface RedirectParams {
  origin: string;
  target?: string | null;
  type: number;
  format: RedirectFormatParam;
}

/** The answer of a redirect write: Yoast's plain body and the HTTP status it came with. */
export interface RedirectWrite {
  status: number;
  body: unknown;
}

export interface SetupSteps {
  setupWidgetLoaded?: 'yes' | 'no';
  setupWidgetTemporarilyDismissed?: 'yes' | 'no';
  setupWidgetPermanentlyDismissed?: 'yes' | 'no';
  firstInteractionStage?: string;
  lastInteractionStage?: string;
}

export interface SiteRepresentation {
  company_or_person: 'company' | 'person';
  company_name?: string;
  company_logo?: string;
  company_logo_id?: number;
  person_logo?: string;
  person_logo_id?: number;
  company_or_person_user_id?: number;
  description?: string;
}

/** Yoast's `{json: X}` wrapper -> X; anything else as is. */
export function unwrap(body: unknown): unknown {
  return isJson(body) && 'json' in body ? body.json : body;
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.map((x) => str(x)).filter((x): x is string => x !== null) : [];

// ---------------------------------------------------------------------------
// Redirects

const TYPE_CODES: Record<RedirectType, number> = {
  MOVED_PERMANENTLY: 301,
  FOUND: 302,
  TEMPORARY_REDIRECT: 307,
  GONE: 410,
  UNAVAILABLE_FOR_LEGAL_REASONS: 451,
};

export function redirectTypeCode(t: RedirectType): number {
  return TYPE_CODES[t];
}

export function redirectTypeOf(code: number): RedirectType | null {
  const hit = (Object.entries(TYPE_CODES) as [RedirectType, number][]).find(([, c]) => c === code);
  return hit ? hit[0] : null;
}

export function formatParam(f: RedirectFormat | null | undefined): RedirectFormatParam {
  return f === 'REGEX' ? 'regex' : 'plain';
}

export function redirectParams(input: {
  origin: string;
  target?: string | null;
  type: RedirectType;
  format?: RedirectFormat | null;
}): RedirectParams {
  return {
    origin: input.origin,
    target: input.target ?? '',
    type: redirectTypeCode(input.type),
    format: formatParam(input.format),
  };
}

/**
 * `redirects/list`: `{success, redirects}` where `redirects` is an array, or,
 * when PHP's `array_filter` kept positions other than 0..n-1, an object keyed
 * by position (docs/sandbox-seo.md "List"). Both become one ordered list.
 */
export function redirectList(body: unknown): Redirect[] {
  const b = obj(body, 'redirects/list answer');
  const raw = b.redirects;
  let entries: [number | null, unknown][];
  if (Array.isArray(raw)) entries = raw.map((r, i) => [i, r]);
  else if (isJson(raw)) entries = Object.entries(raw).map(([k, r]) => [/^\d+$/.test(k) ? Number(k) : null, r]);
  else if (raw === undefined || raw === null) entries = [];
  else throw new UpstreamShapeError('expected redirects/list `redirects` to be a list or an object');
  // An array comes back only when the kept positions are 0..n-1, so its indexes are positions too.
  return entries.map(([pos, r]) => redirect(r, pos));
}

function redirect(v: unknown, position: number | null): Redirect {
  const r = obj(v, 'redirect');
  const code = int(r.type) ?? 301;
  const type = redirectTypeOf(code);
  if (!type) throw new UpstreamShapeError(`unknown redirect type ${String(r.type)}`);
  return {
    origin: str(r.origin) ?? '',
    target: str(r.target ?? r.url) ?? '',
    type,
    statusCode: code,
    format: r.format === 'regex' ? 'REGEX' : 'PLAIN',
    position,
    raw: v,
  };
}

/**
 * A redirect write's plain body -> RedirectResult. `type` (`warning` |
 * `error`) marks a validation failure; a failure without it is a store
 * failure (FAILED).
 */
export function redirectResult(w: RedirectWrite): RedirectResult {
  const b = isJson(w.body) ? w.body : {};
  const success = b.success === true || w.body === true || w.body === 'true';
  let outcome: RedirectOutcome = 'OK';
  if (!success) outcome = b.type === 'warning' ? 'WARNING' : b.type === 'error' ? 'ERROR' : 'FAILED';
  const message = str(b.message);
  return {
    success,
    outcome,
    canIgnore: outcome === 'WARNING',
    title: str(b.title),
    message: message === null ? null : cleanText(message),
    fields: strings(b.fields),
    raw: w.body,
  };
}

const onOff = (v: unknown): boolean | null => (v === 'on' ? true : v === 'off' ? false : bool(v));

/** GET: `{success, is_apache, disable_php_redirect, separate_file, file_path}`; PUT: `{success, message, data}`. */
export function redirectSettings(body: unknown): RedirectSettings {
  const b = obj(body, 'redirect settings');
  const s = isJson(b.data) ? b.data : b;
  return {
    disablePhpRedirect: onOff(s.disable_php_redirect),
    separateFile: onOff(s.separate_file),
    isApache: 'is_apache' in b ? bool(b.is_apache) : null,
    filePath: str(b.file_path),
    message: str(b.message),
    raw: body,
  };
}

// ---------------------------------------------------------------------------
// Scores and statistics

export function statistics(body: unknown): SeoStatistics {
  const b = obj(body, 'statistics');
  const ranks: SeoRankCount[] = (Array.isArray(b.seo_scores) ? b.seo_scores : []).map((x) => {
    const r = obj(x, 'statistics rank');
    const label = str(r.label);
    return {
      rank: str(r.seo_rank) ?? '',
      label: label === null ? null : cleanText(label),
      count: int(r.count) ?? 0,
      link: unescapeUrl(str(r.link)),
      raw: x,
    };
  });
  return { header: str(b.header), ranks, raw: body };
}

export function scoreSummary(body: unknown): SeoScoreSummary {
  const b = obj(body, 'scores');
  const groups = arr(b.scores, 'scores.scores').map((x) => {
    const g = obj(x, 'score group');
    const links = isJson(g.links) ? g.links : {};
    // Yoast sends the IDs as a comma-separated string (troubleshooting only).
    const ids =
      typeof g.ids === 'string'
        ? g.ids
            .split(',')
            .map((i) => int(i))
            .filter((i): i is number => i !== null)
        : Array.isArray(g.ids)
          ? g.ids.map((i) => int(i)).filter((i): i is number => i !== null)
          : null;
    return { name: str(g.name) ?? '', amount: int(g.amount) ?? 0, viewLink: str(links.view), ids, raw: x };
  });
  return { groups, queryTime: num(b.queryTime), cacheUsed: bool(b.cacheUsed), raw: body };
}

// ---------------------------------------------------------------------------
// Tools

export function fileSize(url: string, body: unknown): SeoFileSize {
  const b = obj(body, 'file_size');
  const size = int(b.size_in_bytes);
  if (size === null) throw new UpstreamShapeError('expected file_size.size_in_bytes to be an integer');
  return { url, sizeInBytes: size, raw: body };
}

export function availablePosts(body: unknown): SeoAvailablePost[] {
  return arr(body, 'available_posts').map((x) => {
    const p = obj(x, 'available post');
    return { databaseId: int(p.id) ?? 0, title: str(p.title), slug: str(p.slug), raw: x };
  });
}

/** `{success:true, status:200}`, or `{success:false, status:403}` at HTTP 200 when the caller may not edit the user. */
export function capability(body: unknown): boolean {
  const b = obj(unwrap(body), 'check_capability');
  return b.success === true;
}

export function configurationState(body: unknown): string[] {
  const b = obj(body, 'configuration state');
  return strings(b.data);
}

export function head(status: number, body: unknown): SeoHead {
  const b = obj(body, 'get_head');
  const json = isJson(b.json) ? b.json : {};
  return {
    status: int(b.status) ?? status,
    html: str(b.html),
    title: str(json.title),
    description: str(json.description),
    robots: json.robots ?? null,
    canonical: str(json.canonical),
    json: b.json ?? null,
    raw: body,
  };
}

export function metaFields(body: unknown): SeoMetaField[] {
  const b = obj(body, 'meta/search');
  return (Array.isArray(b.meta) ? b.meta : []).map((x) => {
    const m = obj(x, 'meta field');
    return { key: str(m.key) ?? '', value: str(m.value) };
  });
}

export function keyphrases(body: unknown): SeoKeyphraseResults {
  const b = obj(body, 'related_keyphrases');
  const results = isJson(b.results) ? b.results : {};
  const columnNames = strings(results.columnNames);
  const rows = (Array.isArray(results.rows) ? results.rows : []).map((r) =>
    Array.isArray(r) ? r.map((c) => str(c)) : [],
  );
  const col = (name: string) => columnNames.indexOf(name);
  const [k, v, t, d, i] = ['Keyword', 'Search Volume', 'Trends', 'Keyword Difficulty Index', 'Intent'].map(col) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const at = (row: (string | null)[], idx: number) => (idx >= 0 ? (row[idx] ?? null) : null);
  return {
    columnNames,
    rows,
    keyphrases: rows.map((row) => ({
      keyword: at(row, k) ?? '',
      searchVolume: int(at(row, v)),
      trends: (at(row, t) ?? '')
        .split(',')
        .map((x) => num(x))
        .filter((x): x is number => x !== null),
      difficulty: int(at(row, d)),
      intent: at(row, i),
    })),
    raw: body,
  };
}

/** The tokens are credentials: only whether there is one, and its times, reach the graph. */
export function keywordAuth(body: unknown): SeoKeywordResearchAuth {
  const b = obj(body, 'keyword_research/authenticate');
  const t = isJson(b.tokens) ? b.tokens : {};
  return {
    success: (int(b.status) ?? 200) === 200 && isJson(b.tokens),
    hasAccessToken: bool(t.has_access_token) ?? typeof t.access_token === 'string',
    expiresAt: int(t.expires),
    createdAt: int(t.created_at),
    message: str(b.error),
  };
}

// ---------------------------------------------------------------------------
// Generic answers

/**
 * The many small answers of `seo/v1` writes: `{success, status?}`,
 * `{json:{success, status?, error?, failures?}}`, `{message, success, status}`,
 * `{success, action}`, `{message}` (prominent words save), `{json: true}`.
 */
export function actionResult(body: unknown): SeoActionResult {
  const inner = unwrap(body);
  if (typeof inner === 'boolean') return { success: inner, status: null, message: null, failures: [], raw: body };
  const b = isJson(inner) ? inner : {};
  const message = str(b.message) ?? str(b.error);
  const status = int(b.status);
  const success =
    typeof b.success === 'boolean'
      ? b.success && (status === null || status < 400)
      : message !== null && b.error === undefined;
  return {
    success,
    status,
    message: message === null ? null : cleanText(message),
    failures: strings(b.failures),
    raw: body,
  };
}

/** `{json: true|false}` answers (workouts). */
export function jsonBool(body: unknown): boolean {
  const v = unwrap(body);
  return v === true || (isJson(v) && v.success === true);
}

// ---------------------------------------------------------------------------
// Tasks

export function tasks(body: unknown): SeoTask[] {
  const b = obj(body, 'get_tasks');
  const list = Array.isArray(b.tasks) ? b.tasks : isJson(b.tasks) ? Object.values(b.tasks) : [];
  return list.map((x) => {
    const t = obj(x, 'task');
    const cta = isJson(t.callToAction) ? t.callToAction : null;
    return {
      id: str(t.id) ?? '',
      title: str(t.title),
      about: str(t.about),
      duration: int(t.duration),
      priority: str(t.priority),
      badge: str(t.badge),
      isCompleted: bool(t.isCompleted) ?? false,
      callToAction: cta ? { label: str(cta.label), type: str(cta.type), href: str(cta.href) } : null,
      raw: x,
    };
  });
}

// ---------------------------------------------------------------------------
// Indexables, indexing, linking, workouts

/** An indexable row; its numbers and flags come as strings (sample seo-indexing-posts.json). */
export function indexable(v: unknown): SeoIndexable {
  const o = obj(v, 'indexable');
  return {
    objectId: int(o.object_id),
    objectType: str(o.object_type),
    objectSubType: str(o.object_sub_type),
    permalink: str(o.permalink),
    title: str(o.title),
    breadcrumbTitle: str(o.breadcrumb_title),
    primaryFocusKeyword: str(o.primary_focus_keyword),
    isCornerstone: o.is_cornerstone === undefined || o.is_cornerstone === null ? null : bool(o.is_cornerstone),
    isRobotsNoindex:
      o.is_robots_noindex === undefined || o.is_robots_noindex === null ? null : bool(o.is_robots_noindex),
    incomingLinkCount: int(o.incoming_link_count),
    raw: v,
  };
}

/** `{objects, next_url: url|false}`. */
export function indexingBatch(body: unknown): SeoIndexingBatch {
  const b = obj(body, 'indexing answer');
  const nextUrl = str(b.next_url);
  return {
    objects: (Array.isArray(b.objects) ? b.objects : []).map(indexable),
    hasMore: nextUrl !== null && nextUrl !== '',
    nextUrl,
    raw: body,
  };
}

export function linkSuggestions(body: unknown): SeoLinkSuggestion[] {
  return arr(body, 'link_suggestions').map((x) => {
    const s = obj(x, 'link suggestion');
    return {
      databaseId: int(s.id) ?? 0,
      objectType: str(s.object_type),
      title: str(s.title),
      link: str(s.link),
      isCornerstone: bool(s.isCornerstone) ?? false,
      labels: strings(s.labels),
      score: num(s.score),
      raw: x,
    };
  });
}

export function workoutLinkSuggestions(body: unknown): SeoWorkoutLinkSuggestion[] {
  const list = unwrap(body);
  return (Array.isArray(list) ? list : []).map((x) => {
    const s = obj(x, 'workout link suggestion');
    return {
      objectId: int(s.object_id) ?? 0,
      objectType: str(s.object_type),
      objectSubType: str(s.object_sub_type),
      title: str(s.title),
      permalink: str(s.permalink),
      isCornerstone: bool(s.isCornerstone) ?? false,
      score: num(s.score),
      editLink: str(s.edit_link),
      raw: x,
    };
  });
}

export function prominentWordsContent(body: unknown): SeoProminentWordsContent {
  const b = obj(body, 'prominent_words/get_content');
  const nextUrl = str(b.next_url);
  const objects: SeoContentForWords[] = (Array.isArray(b.objects) ? b.objects : []).map((x) => {
    const o = obj(x, 'content for prominent words');
    const meta = isJson(o.meta) ? o.meta : {};
    return {
      objectId: int(o.object_id) ?? 0,
      content: str(o.content),
      title: str(meta.title),
      description: str(meta.description),
      primaryFocusKeyword: str(meta.primary_focus_keyword),
      keyphraseSynonyms: str(meta.keyphrase_synonyms),
    };
  });
  return { objects, hasMore: nextUrl !== null && nextUrl !== '', nextUrl, raw: body };
}

function workout(v: unknown): SeoWorkout | null {
  if (!isJson(v)) return null;
  return { finishedSteps: strings(v.finishedSteps), indexablesByStep: v.indexablesByStep ?? null };
}

export function workouts(body: unknown): SeoWorkouts {
  const w = obj(unwrap(body), 'workouts');
  return {
    configuration: workout(w.configuration),
    cornerstone: workout(w.cornerstone),
    orphaned: workout(w.orphaned),
    raw: w,
  };
}

export function cornerstoneData(body: unknown): SeoCornerstoneData {
  const d = obj(unwrap(body), 'cornerstone_data');
  return {
    cornerstones: (Array.isArray(d.cornerstones) ? d.cornerstones : []).map(indexable),
    mostLinked: (Array.isArray(d.mostLinked) ? d.mostLinked : []).map(indexable),
    raw: d,
  };
}

/** `{json: "<Y-m-d H:i:s>" | null}`. */
export function lastUpdated(body: unknown): string | null {
  return str(unwrap(body));
}

/** `{json: {value}}`. */
export function videoEmbedPermission(body: unknown): boolean {
  const v = unwrap(body);
  return isJson(v) ? (bool(v.value) ?? false) : false;
}

// ---------------------------------------------------------------------------
// Inputs -> payloads

const yesNo = (v: boolean | null | undefined): 'yes' | 'no' | undefined =>
  v === null || v === undefined ? undefined : v ? 'yes' : 'no';

const STAGES: Record<SeoSetupStage, string> = {
  INSTALL: 'install',
  ACTIVATE: 'activate',
  SETUP: 'setup',
  GRANT_CONSENT: 'grantConsent',
  SUCCESSFULLY_CONNECTED: 'successfullyConnected',
};

export function setupSteps(i: SeoSetupStepsInput): SetupSteps {
  const out: SetupSteps = {};
  const set = <K extends keyof SetupSteps>(k: K, v: SetupSteps[K] | undefined) => {
    if (v !== undefined) out[k] = v;
  };
  set('setupWidgetLoaded', yesNo(i.setupWidgetLoaded));
  set('setupWidgetTemporarilyDismissed', yesNo(i.setupWidgetTemporarilyDismissed));
  set('setupWidgetPermanentlyDismissed', yesNo(i.setupWidgetPermanentlyDismissed));
  set('firstInteractionStage', i.firstInteractionStage ? STAGES[i.firstInteractionStage] : undefined);
  set('lastInteractionStage', i.lastInteractionStage ? STAGES[i.lastInteractionStage] : undefined);
  return out;
}

export function siteRepresentation(i: SeoSiteRepresentationInput): SiteRepresentation {
  const out: SiteRepresentation = { company_or_person: i.companyOrPerson === 'PERSON' ? 'person' : 'company' };
  if (i.companyName != null) out.company_name = i.companyName;
  if (i.companyLogo != null) out.company_logo = i.companyLogo;
  if (i.companyLogoId != null) out.company_logo_id = i.companyLogoId;
  if (i.personLogo != null) out.person_logo = i.personLogo;
  if (i.personLogoId != null) out.person_logo_id = i.personLogoId;
  if (i.companyOrPersonUserId != null) out.company_or_person_user_id = i.companyOrPersonUserId;
  if (i.description != null) out.description = i.description;
  return out;
}

/** The sandbox (and Yoast's validator) wants exactly `finishedSteps` and `indexablesByStep`. */
export function workoutPayload(i: SeoWorkoutInput): Json {
  return { finishedSteps: i.finishedSteps, indexablesByStep: isJson(i.indexablesByStep) ? i.indexablesByStep : {} };
}

export function prominentWords(words: { stem: string; weight: number }[]): Record<string, number> {
  return Object.fromEntries(words.map((w) => [w.stem, w.weight]));
}

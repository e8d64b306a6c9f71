/**
 * Date helpers for the sandbox. WordPress stores `Y-m-d H:i:s` strings, local
 * to the site (post dates) or to the event (TEC's `_EventStartDate`), next to
 * their UTC twins; the conversions go through luxon's IANA zone support.
 */
import { DateTime, IANAZone } from 'luxon';

export const SQL = 'yyyy-MM-dd HH:mm:ss';

export function isZone(tz: string): boolean {
  return IANAZone.isValidZone(tz) || /^UTC[+-]\d{1,2}(:?\d{2})?$/.test(tz) || tz === 'UTC';
}

/** TEC accepts `UTC+2` style zones as well as IANA names. */
export function zoneOf(tz: string): string {
  const m = /^UTC([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(tz);
  if (m) return `UTC${m[1]}${m[2]}${m[3] && m[3] !== '00' ? `:${m[3]}` : ''}`;
  return tz || 'UTC';
}

/**
 * `Y-m-d H:i:s` -> DateTime. Much faster than luxon's `fromFormat`, which
 * re-reads the format on every call (it dominated list responses).
 */
export function parseSql(s: string, zone: string): DateTime {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(s);
  if (!m) return DateTime.invalid('not Y-m-d H:i:s');
  return DateTime.fromObject(
    { year: +m[1]!, month: +m[2]!, day: +m[3]!, hour: +m[4]!, minute: +m[5]!, second: +m[6]! },
    { zone },
  );
}

/** DateTime -> `Y-m-d H:i:s` without luxon's formatter. */
export function toSql(d: DateTime): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.year, 4)}-${p(d.month)}-${p(d.day)} ${p(d.hour)}:${p(d.minute)}:${p(d.second)}`;
}

export function localToUtc(local: string, tz: string): string {
  return toSql(parseSql(local, zoneOf(tz)).toUTC());
}

export function utcToLocal(utc: string, tz: string): string {
  return toSql(parseSql(utc, 'utc').setZone(zoneOf(tz)));
}

export function nowUtc(now: Date): string {
  return DateTime.fromJSDate(now, { zone: 'utc' }).toFormat(SQL);
}

export function nowIn(now: Date, tz: string): string {
  return DateTime.fromJSDate(now).setZone(zoneOf(tz)).toFormat(SQL);
}

/**
 * Locales whose CLDR data name zones that en-US only shows as an offset, as
 * PHP's `T` format does: CET/CEST and BST (en-GB), IST (en-IN), AEST/AEDT
 * (en-AU), JST (ja-JP). The legacy samples show "JST" for Asia/Tokyo.
 */
const ABBR_LOCALES = ['en-GB', 'en-IN', 'en-AU', 'ja-JP'];

export function abbr(local: string, tz: string): string {
  const dt = parseSql(local, zoneOf(tz));
  let name = dt.toFormat('ZZZZ');
  if (/^(GMT|UTC)[+-]/.test(name)) {
    const named = ABBR_LOCALES.map((l) => dt.setLocale(l).toFormat('ZZZZ')).find(
      (n) => /^[A-Z]{3,5}$/.test(n) && n !== 'GMT' && n !== 'UTC',
    );
    if (named) name = named;
  }
  return name.startsWith('GMT') || name.startsWith('UTC')
    ? name === 'GMT'
      ? 'UTC'
      : name.replace('GMT', 'UTC')
    : name;
}

/** `2024-05-01 13:45:00` -> `2024-05-01T13:45:00` (mysql_to_rfc3339: no offset). */
export function toRfc3339NoOffset(sql: string): string {
  return sql.replace(' ', 'T');
}

export function details(sql: string): Record<'year' | 'month' | 'day' | 'hour' | 'minutes' | 'seconds', string> {
  const [d = '', t = ''] = sql.split(' ');
  const [year = '', month = '', day = ''] = d.split('-');
  const [hour = '', minutes = '', seconds = ''] = t.split(':');
  return { year, month, day, hour, minutes, seconds };
}

/**
 * The subset of PHP's strtotime that TEC callers use: `Y-m-d`, `Y-m-d H:i[:s]`,
 * RFC 3339 with an offset, a unix timestamp, `now`/`today`/`tomorrow`/
 * `yesterday`, and `+N unit(s)`. Returns a site-local `Y-m-d H:i:s`, or null.
 */
export function parseLooseDate(input: unknown, siteTz: string, now: Date): string | null {
  if (typeof input === 'number' || (typeof input === 'string' && /^\d{9,11}$/.test(input.trim()))) {
    return DateTime.fromSeconds(Number(input), { zone: zoneOf(siteTz) }).toFormat(SQL);
  }
  if (typeof input !== 'string') return null;
  const s = input.trim();
  const zone = zoneOf(siteTz);
  let m =
    /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(s);
  if (m) {
    const [, y, mo, d, h = '0', mi = '0', se = '0', off] = m;
    const opts = off
      ? { zone: off.toUpperCase() === 'Z' ? 'utc' : `UTC${off.slice(0, 3)}:${off.slice(-2)}` }
      : { zone };
    const dt = DateTime.fromObject({ year: +y!, month: +mo!, day: +d!, hour: +h, minute: +mi, second: +se }, opts);
    return dt.isValid ? dt.setZone(zone).toFormat(SQL) : null;
  }
  const base = DateTime.fromJSDate(now).setZone(zone);
  const lower = s.toLowerCase();
  if (lower === 'now') return base.toFormat(SQL);
  if (lower === 'today' || lower === 'midnight') return base.startOf('day').toFormat(SQL);
  if (lower === 'tomorrow') return base.plus({ days: 1 }).startOf('day').toFormat(SQL);
  if (lower === 'yesterday') return base.minus({ days: 1 }).startOf('day').toFormat(SQL);
  m = /^([+-])\s*(\d+)\s*(second|minute|hour|day|week|month|year)s?$/.exec(lower);
  if (m) {
    const n = Number(m[2]) * (m[1] === '-' ? -1 : 1);
    return base.plus({ [`${m[3]}s`]: n }).toFormat(SQL);
  }
  return null;
}

/**
 * Whether PHP's `strtotime` would give 0 for this value: the Unix epoch. PHP
 * runs in UTC under WordPress, so a value without an offset is read as UTC
 * (`1970-01-01 00:00:00` is 0 whatever the site's zone). TEC's `is_time`
 * treats 0 as "not a date" (real-site-behaviour.md, legacy list dates).
 */
export function isEpoch(input: unknown, now: Date): boolean {
  if (typeof input === 'number' || (typeof input === 'string' && /^\s*[-+]?\d+(\.\d*)?\s*$/.test(input)))
    return Number(input) === 0;
  return parseLooseDate(input, 'UTC', now) === '1970-01-01 00:00:00';
}

export function startOfDay(sql: string): string {
  return `${sql.slice(0, 10)} 00:00:00`;
}

export function endOfDay(sql: string): string {
  return `${sql.slice(0, 10)} 23:59:59`;
}

export function addSeconds(sql: string, seconds: number): string {
  return toSql(parseSql(sql, 'utc').plus({ seconds }));
}

export function diffSeconds(a: string, b: string): number {
  return Math.round((Date.parse(`${b.replace(' ', 'T')}Z`) - Date.parse(`${a.replace(' ', 'T')}Z`)) / 1000);
}

export function gmtOffsetHours(tz: string, now: Date): number {
  return DateTime.fromJSDate(now).setZone(zoneOf(tz)).offset / 60;
}

/**
 * Date conversions between the site's `Y-m-d H:i:s` strings and the graph's
 * RFC 3339 `DateTime` (luxon for time zones).
 */
import { DateTime } from 'luxon';

const SQL = 'yyyy-MM-dd HH:mm:ss';

function parseLocal(s: string, zone: string): DateTime {
  const norm = s
    .trim()
    .replace('T', ' ')
    .replace(/\.\d+$/, '');
  return DateTime.fromFormat(norm, SQL, { zone });
}

/** `UTC+2` / `UTC-5:30` style zones as luxon understands them. */
export function luxonZone(tz: string | null | undefined): string | null {
  if (!tz) return null;
  const m = /^UTC([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(tz.trim());
  if (m) return `UTC${m[1]}${m[2]}${m[3] && m[3] !== '00' ? `:${m[3]}` : ''}`;
  if (/^utc$/i.test(tz.trim())) return 'utc';
  return DateTime.now().setZone(tz).isValid ? tz : null;
}

const WALL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/;

/** The parts of a wall-clock `Y-m-d H:i:s` (or RFC 3339 without offset); null when malformed. Read once per date. */
function wall(s: string): RegExpExecArray | null {
  return WALL.exec(s.trim());
}

/** Milliseconds of parsed wall-clock parts read as if they were UTC. */
function msOf(m: RegExpExecArray): number {
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
}

/** Milliseconds of a wall-clock `Y-m-d H:i:s` read as if it were UTC; NaN when malformed. */
function wallMs(s: string): number {
  const m = wall(s);
  return m ? msOf(m) : NaN;
}

function textOf(m: RegExpExecArray): string {
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}`;
}

function offsetText(minutes: number): string {
  if (minutes === 0) return 'Z';
  const a = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

/**
 * A local wall-clock time and its UTC twin -> RFC 3339 with the right offset.
 * The offset comes from the pair itself (no time zone, no date library: this
 * runs for every date of every object); without the UTC value the zone (or the
 * fallback zone) decides, through luxon.
 */
export function withOffset(
  local: string | null | undefined,
  utc: string | null | undefined,
  zone?: string | null,
  fallbackZone = 'utc',
): string | null {
  if (!local && !utc) return null;
  if (local && utc) {
    const l = wall(local);
    const u = wall(utc);
    if (l && u) return `${textOf(l)}${offsetText(Math.round((msOf(l) - msOf(u)) / 60_000))}`;
  }
  if (local) {
    const z = luxonZone(zone) ?? luxonZone(fallbackZone) ?? 'utc';
    const d = parseLocal(local, z);
    return d.isValid ? d.toISO({ suppressMilliseconds: true }) : null;
  }
  return toUtc(utc);
}

/** A UTC `Y-m-d H:i:s` (or RFC 3339 without offset) -> `...Z`. */
export function toUtc(utc: string | null | undefined): string | null {
  const m = utc ? wall(utc) : null;
  return m ? `${textOf(m)}Z` : null;
}

/** A graph DateTime input -> `Y-m-d H:i:s` in `zone` (inputs without offset are already in `zone`). */
export function toSiteLocal(value: string, zone: string): string | null {
  const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/i.test(value.trim());
  const d = hasOffset
    ? DateTime.fromISO(value.trim(), { setZone: true })
    : DateTime.fromISO(value.trim().replace(' ', 'T'), { zone: luxonZone(zone) ?? 'utc' });
  if (!d.isValid) return null;
  return d.setZone(luxonZone(zone) ?? 'utc').toFormat(SQL);
}

/** A `Y-m-d H:i:s` in `zone` -> the same instant as `Y-m-d H:i:s` in UTC (null when it is no date). */
export function siteLocalToUtc(local: string, zone: string): string | null {
  const d = DateTime.fromISO(local.trim().replace(' ', 'T'), { zone: luxonZone(zone) ?? 'utc' });
  return d.isValid ? d.toUTC().toFormat(SQL) : null;
}

/** Seconds between two UTC `Y-m-d H:i:s` strings. */
export function secondsBetween(startUtc: string | null | undefined, endUtc: string | null | undefined): number | null {
  if (!startUtc || !endUtc) return null;
  const a = wallMs(startUtc);
  const b = wallMs(endUtc);
  return Number.isNaN(a) || Number.isNaN(b) ? null : Math.round((b - a) / 1000);
}

export function isValidDateTimeInput(value: string): boolean {
  const v = value.trim();
  return (
    /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(v) &&
    DateTime.fromISO(v.replace(' ', 'T'), { setZone: true }).isValid
  );
}

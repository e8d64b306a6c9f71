/**
 * Date conversions between the site's `Y-m-d H:i:s` strings and the graph's
 * RFC 3339 `DateTime` (luxon for time zones).
 */
import { DateTime } from 'luxon';

const SQL = 'yyyy-MM-dd HH:mm:ss';

function parseLocal(s: string, zone: string): DateTime {
  const norm = s.trim().replace('T', ' ').replace(/\.\d+$/, '');
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

/**
 * A local wall-clock time and its UTC twin -> RFC 3339 with the right offset.
 * The offset comes from the pair itself, so no time zone is needed; without
 * the UTC value the zone (or the fallback zone) decides.
 */
export function withOffset(local: string | null | undefined, utc: string | null | undefined, zone?: string | null, fallbackZone = 'utc'): string | null {
  if (!local && !utc) return null;
  if (local && utc) {
    const l = parseLocal(local, 'utc');
    const u = parseLocal(utc, 'utc');
    if (l.isValid && u.isValid) {
      const minutes = Math.round(l.diff(u, 'minutes').minutes);
      return u.setZone(minutes === 0 ? 'utc' : `UTC${minutes >= 0 ? '+' : '-'}${fmtOffset(Math.abs(minutes))}`).toISO({ suppressMilliseconds: true });
    }
  }
  if (local) {
    const z = luxonZone(zone) ?? luxonZone(fallbackZone) ?? 'utc';
    const d = parseLocal(local, z);
    return d.isValid ? d.toISO({ suppressMilliseconds: true }) : null;
  }
  return toUtc(utc);
}

function fmtOffset(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m ? `${h}:${String(m).padStart(2, '0')}` : String(h);
}

/** A UTC `Y-m-d H:i:s` (or RFC 3339 without offset) -> `...Z`. */
export function toUtc(utc: string | null | undefined): string | null {
  if (!utc) return null;
  const d = parseLocal(utc, 'utc');
  return d.isValid ? d.toISO({ suppressMilliseconds: true }) : null;
}

/** A graph DateTime input -> `Y-m-d H:i:s` in `zone` (inputs without offset are already in `zone`). */
export function toSiteLocal(value: string, zone: string): string | null {
  const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/i.test(value.trim());
  const d = hasOffset ? DateTime.fromISO(value.trim(), { setZone: true }) : DateTime.fromISO(value.trim().replace(' ', 'T'), { zone: luxonZone(zone) ?? 'utc' });
  if (!d.isValid) return null;
  return d.setZone(luxonZone(zone) ?? 'utc').toFormat(SQL);
}

/** Seconds between two UTC `Y-m-d H:i:s` strings. */
export function secondsBetween(startUtc: string | null | undefined, endUtc: string | null | undefined): number | null {
  if (!startUtc || !endUtc) return null;
  const a = parseLocal(startUtc, 'utc');
  const b = parseLocal(endUtc, 'utc');
  return a.isValid && b.isValid ? Math.round(b.diff(a, 'seconds').seconds) : null;
}

export function isValidDateTimeInput(value: string): boolean {
  const v = value.trim();
  return /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(v) && DateTime.fromISO(v.replace(' ', 'T'), { setZone: true }).isValid;
}

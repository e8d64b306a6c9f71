/**
 * The `image` argument of legacy writes (`tribe_upload_image`): an attachment
 * ID, or a URL, which WordPress would download into the media library. The
 * sandbox reuses an attachment with that URL, or records a new one pointing at
 * it (no download, so no dimensions).
 */
import { nowIn, nowUtc } from '../../dates.ts';
import { slugify, type AttachmentMeta } from '../../calendar/model.ts';
import type { Clock, Origin, Storage } from '../../capabilities.ts';

const MIME: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

/** Attachment ID for a validated `image` value; 0 clears the image. Writes when the URL is new. */
export function imageIdFor(site: Clock & Origin & Storage, value: unknown, authorId: number): number {
  if (value === null || value === undefined || value === '' || value === 0 || value === '0') return 0;
  const s = String(value).trim();
  if (/^\d+$/.test(s)) return Number(s);
  const relative = s.startsWith(site.origin) ? s.slice(site.origin.length) : s;
  const existing = site.store
    .posts<AttachmentMeta>('attachment')
    .find((a) => a.meta.url === relative || a.meta.url === s);
  if (existing) return existing.id;
  const file = new URL(s).pathname.split('/').pop() || 'image';
  const ext = /\.([a-z0-9]+)$/i.exec(file)?.[1]?.toLowerCase() ?? '';
  const title = file.replace(/\.[^.]+$/, '');
  const now = site.now();
  const meta: AttachmentMeta = { url: s, width: 0, height: 0, mime: MIME[ext] ?? 'image/jpeg', filesize: 0 };
  return site.store.insertPost<AttachmentMeta>({
    type: 'attachment',
    status: 'inherit',
    title,
    slug: site.store.uniqueSlug('attachment', slugify(title)),
    author: authorId,
    date: nowIn(now, site.timezone),
    dateGmt: nowUtc(now),
    meta,
  }).id;
}

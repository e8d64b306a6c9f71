/**
 * Image sizes of an attachment, as WordPress generates them on upload
 * (thumbnail 150x150 cropped, medium 300, large 1024, each only when smaller
 * than the original) with the `-WxH` suffix in the file name. The seeded
 * attachments keep a site-relative `url`; the origin is added per request.
 */
import type { AttachmentMeta } from '../../calendar/model.ts';
import type { PostRow } from '../../store/db.ts';

export interface ImageSize {
  url: string;
  width: number;
  height: number;
}

const SIZES: [name: string, width: number, height: number, crop: boolean][] = [
  ['thumbnail', 150, 150, true],
  ['medium', 300, 300, false],
  ['large', 1024, 1024, false],
];

function suffixed(url: string, w: number, h: number): string {
  return url.replace(/(\.[a-z0-9]+)$/i, `-${w}x${h}$1`);
}

/** `{name: {url, width, height}}` for the generated sizes, then `full`. */
export function imageSizes(origin: string, meta: AttachmentMeta): Record<string, ImageSize> {
  const out: Record<string, ImageSize> = {};
  for (const [name, w, h, crop] of SIZES) {
    if (meta.width <= w && meta.height <= h) continue;
    const [width, height] = crop ? [w, h] : fit(meta.width, meta.height, w, h);
    out[name] = { url: origin + suffixed(meta.url, width, height), width, height };
  }
  out.full = { url: origin + meta.url, width: meta.width, height: meta.height };
  return out;
}

/** wp_constrain_dimensions: scale down to fit inside the box, keeping the ratio. */
export function fit(width: number, height: number, maxW: number, maxH: number): [number, number] {
  const ratio = Math.min(maxW > 0 ? maxW / width : 1, maxH > 0 ? maxH / height : 1, 1);
  return [Math.max(1, Math.round(width * ratio)), Math.max(1, Math.round(height * ratio))];
}

/**
 * wp_get_attachment_image_src(id, [width, 0]): the smallest uncropped size at
 * least `width` wide (or the full image), its dimensions constrained to `width`.
 */
export function imageForWidth(origin: string, post: PostRow<AttachmentMeta>, width: number): ImageSize {
  const sizes = imageSizes(origin, post.meta);
  const candidates = ['medium', 'large', 'full'].map((n) => sizes[n]).filter((s): s is ImageSize => s !== undefined);
  const pick = candidates.find((s) => s.width >= width) ?? sizes.full!;
  const [w, h] = fit(pick.width, pick.height, width, 0);
  return { url: pick.url, width: w, height: h };
}

/** Strips the `-WxH` size suffix before the extension (GenerateBlocks' get-attachment-by-url). */
export function stripSizeSuffix(url: string): string {
  return url.replace(/-\d+x\d+(\.[a-z0-9]+)$/i, '$1');
}

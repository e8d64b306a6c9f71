/**
 * `GET /site-blocks/v1/get-attachment-id` (other-upstream.md §5 [U]). No
 * public plugin registers it; the sandbox answers in the style of its nearest
 * analogue, GenerateBlocks' `get-attachment-by-url`: `edit_posts`; the URL's
 * `-WxH` size suffix is removed before the lookup, so a resized copy finds
 * its original; success is `{success: true, response: {id, full_url, width,
 * height, sizes}}`; failures are `{error: true, success: false, error_code,
 * response}`. GenerateBlocks sends those failures with HTTP 401; the sandbox
 * uses 400 (`no_url`) and 404 (`no_attachment`) so a client never mistakes
 * them for an authentication problem (documented in docs/sandbox-platform.md).
 */
import { can } from '../../auth.ts';
import type { AttachmentMeta } from '../../calendar/model.ts';
import { RawError } from '../../errors.ts';
import type { RestRequest, RouteDecl } from '../../rest/types.ts';
import type { Origin } from '../../capabilities.ts';
import { imageSizes, stripSizeSuffix } from './media.ts';

const NS = 'site-blocks/v1';

function failure(status: number, code: string, message: string): RawError {
  return new RawError(status, { error: true, success: false, error_code: code, response: message });
}

/** attachment_url_to_postid: the site-relative upload path of an own-site (or relative) URL; null for other hosts. */
export function uploadPath(site: Origin, raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw, site.origin);
  } catch {
    return null;
  }
  if (url.hostname.replace(/^www\./, '') !== new URL(site.origin).hostname.replace(/^www\./, '')) return null;
  return stripSizeSuffix(decodeURIComponent(url.pathname));
}

function getAttachmentId(req: RestRequest): unknown {
  const { site } = req;
  const raw = String(req.params.url).trim();
  if (!raw) throw failure(400, 'no_url', 'No URL provided.');
  const path = uploadPath(site, raw);
  const found =
    path === null ? undefined : site.store.posts<AttachmentMeta>('attachment').find((a) => a.meta.url === path);
  if (!found) throw failure(404, 'no_attachment', 'No attachment found.');
  const sizes = imageSizes(site.origin, found.meta);
  return {
    success: true,
    response: { id: found.id, full_url: sizes.full!.url, width: found.meta.width, height: found.meta.height, sizes },
  };
}

export function blocksRoutes(): RouteDecl[] {
  return [
    {
      namespace: NS,
      path: `/${NS}/get-attachment-id`,
      endpoints: [
        {
          methods: ['GET'],
          summary: 'The attachment behind an image URL (any generated size)',
          args: {
            url: { type: 'string', required: true, description: 'The image URL, full size or a generated size.' },
          },
          permission: (req) => can(req.user, 'edit_posts'),
          handler: getAttachmentId,
        },
      ],
    },
  ];
}

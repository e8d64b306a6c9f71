/**
 * `calendar/views/v2/html`: the calendar views' own endpoint (spec C;
 * calendar-upstream.md §5; TEC `Views/V2/Rest_Endpoint.php`). GET or POST
 * with the view URL in `u`; the permission callback wants a `_view_rest`
 * nonce, `tvn1` for the current user or `tvn2` for a logged-out visitor
 * (otherwise `rest_forbidden`, 401 or 403). The answer is JSON,
 * `{"html": "<rendered view>"}` (TEC 6.11.1 and later).
 *
 * In the sandbox a page's nonces come from `GET /__sandbox/nonce?action=_view_rest`
 * (with Basic credentials for a user's nonce, without for a visitor's), and
 * every rendered view embeds the next pair, as real pages do.
 */
import { createNonce, verifyNonce } from '../../auth.ts';
import type { ArgSchema, RestRequest, RouteDecl } from '../../rest/types.ts';
import { parseViewUrl, renderView } from './view-render.ts';

export const NS = 'calendar/views/v2';
export const VIEW_NONCE_ACTION = '_view_rest';

const isString = (v: unknown) => typeof v === 'string';

/** FILTER_SANITIZE_URL: drops every character a URL cannot hold. */
function sanitizeUrl(v: unknown): string {
  return String(v).replace(/[^A-Za-z0-9$\-_.+!*'(),{}|\\^~[\]`<>#%";/?:@&=]/g, '');
}

// TEC declares no types here, only validate callbacks (spec C: "Types are not stated").
const args: Record<string, ArgSchema> = {
  u: { required: true, description: 'The URL of the view to render.', validate: isString, sanitize: sanitizeUrl },
  view: { description: 'The view slug.', validate: isString },
  tvn1: { description: "The current user's _view_rest nonce.", validate: isString },
  tvn2: { description: 'A logged-out _view_rest nonce, for cached pages.', validate: isString },
  view_data: {
    description: 'Extra view data (query vars such as tribe-bar-date).',
    validate: (v) => typeof v === 'object' && v !== null,
    sanitize: (v) => (typeof v === 'object' && v !== null ? v : {}),
  },
  action: { description: 'The admin-ajax action of the fallback.', validate: isString },
};

/** Either nonce: `tvn1` for whoever is signed in, `tvn2` for a visitor (user 0). */
function nonceOk(req: RestRequest): boolean {
  const now = req.site.now().getTime();
  return (
    verifyNonce(req.site.secret, req.params.tvn1, VIEW_NONCE_ACTION, req.user?.id ?? 0, now) ||
    verifyNonce(req.site.secret, req.params.tvn2, VIEW_NONCE_ACTION, 0, now)
  );
}

export function viewsRoutes(): RouteDecl[] {
  return [
    {
      namespace: NS,
      path: `/${NS}/html`,
      endpoints: [
        {
          methods: ['GET', 'POST'],
          args,
          permission: nonceOk,
          handler: (req) => {
            const { site } = req;
            const p = req.params;
            const r = parseViewUrl(
              site,
              String(p.u),
              typeof p.view === 'string' && p.view ? p.view : undefined,
              (p.view_data as Record<string, unknown> | undefined) ?? {},
            );
            const now = site.now().getTime();
            const nonces = {
              tvn1: createNonce(site.secret, VIEW_NONCE_ACTION, req.user?.id ?? 0, now),
              tvn2: req.user ? createNonce(site.secret, VIEW_NONCE_ACTION, 0, now) : '',
            };
            return { html: renderView(site, r, nonces) };
          },
          summary: 'Renders a calendar view as HTML',
        },
      ],
    },
  ];
}

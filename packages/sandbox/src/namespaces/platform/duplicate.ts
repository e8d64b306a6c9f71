/**
 * `DELETE /duplicate-post/v1/original/<post_id>` (Yoast Duplicate Post 4.6,
 * src/handlers/rest-api-handler.php; other-upstream.md §6 [C]). The
 * permission callback does every check, in this order: the post exists (404
 * `rest_post_not_found`), the caller may edit it (403 `rest_forbidden`, even
 * logged out: the plugin hard-codes 403), it is not a Rewrite & Republish
 * copy (403). The callback deletes `_dp_original`: 500 `rest_cannot_delete`
 * when there was none, else 200 `{success, message}`.
 */
import { can } from '../../auth.ts';
import { canEdit } from '../../calendar/model.ts';
import { RestError } from '../../errors.ts';
import type { RestRequest, RouteDecl } from '../../rest/types.ts';
import type { PlatformPostMeta } from './post-json.ts';

const NS = 'duplicate-post/v1';

function permission(req: RestRequest): true | RestError {
  const post = req.site.store.post<PlatformPostMeta>(Number(req.params.post_id));
  if (!post) return new RestError('rest_post_not_found', 'Post not found.', 404);
  if (!canEdit(post, req.user, (cap) => can(req.user, cap))) {
    return new RestError('rest_forbidden', 'You do not have permission to edit this post.', 403);
  }
  if (Number(post.meta._dp_is_rewrite_republish_copy) === 1) {
    return new RestError('rest_forbidden', 'Cannot remove original reference from a Rewrite & Republish copy.', 403);
  }
  return true;
}

function removeOriginal(req: RestRequest): unknown {
  const { store } = req.site;
  const post = store.post<PlatformPostMeta>(Number(req.params.post_id))!;
  // delete_post_meta is false when there was nothing to delete.
  if (post.meta._dp_original === undefined)
    throw new RestError('rest_cannot_delete', 'Could not remove the original reference.', 500);
  store.updatePost<PlatformPostMeta>(post.id, { meta: { _dp_original: undefined } });
  return { success: true, message: 'Original reference removed successfully.' };
}

export function duplicateRoutes(): RouteDecl[] {
  return [
    {
      namespace: NS,
      path: `/${NS}/original/(?P<post_id>\\d+)`,
      endpoints: [
        {
          methods: ['DELETE'],
          summary: 'Remove the original reference of a duplicated post',
          args: {
            post_id: {
              type: 'integer',
              required: true,
              description: 'The ID of the post to remove the original reference from.',
              // The plugin's validate_callback: numeric and above zero (a bare false: "Invalid parameter.").
              validate: (v) => Number(v) > 0,
            },
          },
          permission,
          handler: removeOriginal,
        },
      ],
    },
  ];
}

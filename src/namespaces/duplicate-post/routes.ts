/** duplicate-post/v1 as data: `Mutation.removeDuplicatePostOriginal`. */
import type { MutationResolvers, Resolvers } from '../../generated/graphql.ts';
import { GatewayError } from '../../errors.ts';
import { databaseIdOf } from '../../mapping/ids.ts';
import { obj } from '../../mapping/json.ts';
import { resolversOf, routeRows, type FieldRoutes } from '../../routes/declare.ts';
import type { RouteUse } from '../../routes/route-use.ts';

const postIdOf = (postId: string) => databaseIdOf(postId, 'Post');

export const DUPLICATE_POST_ROUTES: FieldRoutes<MutationResolvers> = {
  removeDuplicatePostOriginal: {
    method: 'DELETE',
    path: '/duplicate-post/v1/original/<post_id>',
    check: ({ postId }) => {
      if (postIdOf(postId) === null) {
        throw GatewayError.badInput(
          `postId: ${JSON.stringify(postId)} is neither a Post global ID nor a positive database ID`,
          { arguments: ['postId'] },
        );
      }
    },
    params: ({ postId }) => ({ post_id: String(postIdOf(postId)) }),
    target: ({ postId }) => ({ argument: 'postId', param: 'post_id', label: 'post', id: postIdOf(postId)! }),
    result: (b) => {
      const body = obj(b, 'duplicate-post answer');
      return {
        success: body.success === true,
        message: typeof body.message === 'string' ? body.message : null,
        raw: body,
      };
    },
  },
};

export const duplicatePostResolvers: Resolvers = { Mutation: resolversOf(DUPLICATE_POST_ROUTES) };
export const DUPLICATE_POST_ROWS: RouteUse[] = routeRows('Mutation', DUPLICATE_POST_ROUTES);

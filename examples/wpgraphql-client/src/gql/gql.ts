/* eslint-disable */
import * as types from './graphql.ts';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
  '\n  query Posts($first: Int!) {\n    posts(first: $first, where: { orderby: { field: DATE, order: DESC } }) {\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        databaseId\n        title\n        slug\n        uri\n        date\n        excerpt\n        author {\n          node {\n            name\n          }\n        }\n      }\n    }\n  }\n': typeof types.PostsDocument;
  '\n  query NodeByUri($uri: String!) {\n    nodeByUri(uri: $uri) {\n      __typename\n      id\n      uri\n      ... on Post {\n        databaseId\n        title\n        date\n        content\n      }\n      ... on Event {\n        databaseId\n        title\n        startDate\n      }\n    }\n  }\n': typeof types.NodeByUriDocument;
  '\n  query PostSeo($uri: ID!) {\n    post(id: $uri, idType: URI) {\n      title\n      seo {\n        title\n        metaDesc\n        canonical\n        metaRobotsNoindex\n        opengraphTitle\n        opengraphType\n        readingTime\n        breadcrumbs {\n          text\n          url\n        }\n      }\n    }\n  }\n': typeof types.PostSeoDocument;
  '\n  query EventsBetween($after: DateInput!, $before: DateInput!, $first: Int = 10) {\n    events(\n      first: $first\n      where: {\n        startDateQuery: { after: $after }\n        endDateQuery: { before: $before }\n        orderby: [{ field: TITLE, order: ASC }]\n      }\n    ) {\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        databaseId\n        slug\n        uri\n        title\n        startDate\n        endDate\n        allDay\n        venue {\n          databaseId\n          title\n          city\n        }\n        organizers {\n          nodes {\n            databaseId\n            title\n          }\n        }\n        eventsCategories {\n          nodes {\n            name\n            slug\n          }\n        }\n      }\n    }\n  }\n': typeof types.EventsBetweenDocument;
  '\n  query EventBySlug($slug: ID!) {\n    event(id: $slug, idType: SLUG) {\n      id\n      databaseId\n      title\n      slug\n      uri\n      content\n      startDate\n      endDate\n      allDay\n      timezone\n      cost\n      venue {\n        title\n        address\n        city\n      }\n      organizers {\n        nodes {\n          title\n          email\n        }\n      }\n      eventsCategories {\n        nodes {\n          name\n          slug\n        }\n      }\n      tags {\n        nodes {\n          name\n        }\n      }\n    }\n  }\n': typeof types.EventBySlugDocument;
  '\n  query Venues($first: Int!) {\n    venues(first: $first, where: { orderby: [{ field: TITLE, order: ASC }] }) {\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        databaseId\n        title\n        slug\n        uri\n        city\n        country\n      }\n    }\n  }\n': typeof types.VenuesDocument;
};
const documents: Documents = {
  '\n  query Posts($first: Int!) {\n    posts(first: $first, where: { orderby: { field: DATE, order: DESC } }) {\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        databaseId\n        title\n        slug\n        uri\n        date\n        excerpt\n        author {\n          node {\n            name\n          }\n        }\n      }\n    }\n  }\n':
    types.PostsDocument,
  '\n  query NodeByUri($uri: String!) {\n    nodeByUri(uri: $uri) {\n      __typename\n      id\n      uri\n      ... on Post {\n        databaseId\n        title\n        date\n        content\n      }\n      ... on Event {\n        databaseId\n        title\n        startDate\n      }\n    }\n  }\n':
    types.NodeByUriDocument,
  '\n  query PostSeo($uri: ID!) {\n    post(id: $uri, idType: URI) {\n      title\n      seo {\n        title\n        metaDesc\n        canonical\n        metaRobotsNoindex\n        opengraphTitle\n        opengraphType\n        readingTime\n        breadcrumbs {\n          text\n          url\n        }\n      }\n    }\n  }\n':
    types.PostSeoDocument,
  '\n  query EventsBetween($after: DateInput!, $before: DateInput!, $first: Int = 10) {\n    events(\n      first: $first\n      where: {\n        startDateQuery: { after: $after }\n        endDateQuery: { before: $before }\n        orderby: [{ field: TITLE, order: ASC }]\n      }\n    ) {\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        databaseId\n        slug\n        uri\n        title\n        startDate\n        endDate\n        allDay\n        venue {\n          databaseId\n          title\n          city\n        }\n        organizers {\n          nodes {\n            databaseId\n            title\n          }\n        }\n        eventsCategories {\n          nodes {\n            name\n            slug\n          }\n        }\n      }\n    }\n  }\n':
    types.EventsBetweenDocument,
  '\n  query EventBySlug($slug: ID!) {\n    event(id: $slug, idType: SLUG) {\n      id\n      databaseId\n      title\n      slug\n      uri\n      content\n      startDate\n      endDate\n      allDay\n      timezone\n      cost\n      venue {\n        title\n        address\n        city\n      }\n      organizers {\n        nodes {\n          title\n          email\n        }\n      }\n      eventsCategories {\n        nodes {\n          name\n          slug\n        }\n      }\n      tags {\n        nodes {\n          name\n        }\n      }\n    }\n  }\n':
    types.EventBySlugDocument,
  '\n  query Venues($first: Int!) {\n    venues(first: $first, where: { orderby: [{ field: TITLE, order: ASC }] }) {\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        databaseId\n        title\n        slug\n        uri\n        city\n        country\n      }\n    }\n  }\n':
    types.VenuesDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Posts($first: Int!) {\n    posts(first: $first, where: { orderby: { field: DATE, order: DESC } }) {\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        databaseId\n        title\n        slug\n        uri\n        date\n        excerpt\n        author {\n          node {\n            name\n          }\n        }\n      }\n    }\n  }\n',
): typeof import('./graphql.ts').PostsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query NodeByUri($uri: String!) {\n    nodeByUri(uri: $uri) {\n      __typename\n      id\n      uri\n      ... on Post {\n        databaseId\n        title\n        date\n        content\n      }\n      ... on Event {\n        databaseId\n        title\n        startDate\n      }\n    }\n  }\n',
): typeof import('./graphql.ts').NodeByUriDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query PostSeo($uri: ID!) {\n    post(id: $uri, idType: URI) {\n      title\n      seo {\n        title\n        metaDesc\n        canonical\n        metaRobotsNoindex\n        opengraphTitle\n        opengraphType\n        readingTime\n        breadcrumbs {\n          text\n          url\n        }\n      }\n    }\n  }\n',
): typeof import('./graphql.ts').PostSeoDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query EventsBetween($after: DateInput!, $before: DateInput!, $first: Int = 10) {\n    events(\n      first: $first\n      where: {\n        startDateQuery: { after: $after }\n        endDateQuery: { before: $before }\n        orderby: [{ field: TITLE, order: ASC }]\n      }\n    ) {\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        databaseId\n        slug\n        uri\n        title\n        startDate\n        endDate\n        allDay\n        venue {\n          databaseId\n          title\n          city\n        }\n        organizers {\n          nodes {\n            databaseId\n            title\n          }\n        }\n        eventsCategories {\n          nodes {\n            name\n            slug\n          }\n        }\n      }\n    }\n  }\n',
): typeof import('./graphql.ts').EventsBetweenDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query EventBySlug($slug: ID!) {\n    event(id: $slug, idType: SLUG) {\n      id\n      databaseId\n      title\n      slug\n      uri\n      content\n      startDate\n      endDate\n      allDay\n      timezone\n      cost\n      venue {\n        title\n        address\n        city\n      }\n      organizers {\n        nodes {\n          title\n          email\n        }\n      }\n      eventsCategories {\n        nodes {\n          name\n          slug\n        }\n      }\n      tags {\n        nodes {\n          name\n        }\n      }\n    }\n  }\n',
): typeof import('./graphql.ts').EventBySlugDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Venues($first: Int!) {\n    venues(first: $first, where: { orderby: [{ field: TITLE, order: ASC }] }) {\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        databaseId\n        title\n        slug\n        uri\n        city\n        country\n      }\n    }\n  }\n',
): typeof import('./graphql.ts').VenuesDocument;

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

/**
 * The typed call: `npx tsx examples/client/src/main.ts [gateway URL]` (after
 * `npm run codegen:client`, with a gateway running that was given the manifest:
 * `PERSISTED_DOCUMENTS=examples/client/src/gql/persisted-documents.json npm run dev`;
 * the client sends ids only, see examples/client/README.md). `data` is fully typed:
 * `event.venues[0]?.title` is `string | null | undefined`, and a misspelled
 * field is a compile error.
 */
import { pathToFileURL } from 'node:url';
import { execute } from './client.ts';
import { UpcomingEventsQuery } from './operations.ts';

export async function upcomingTitles(endpoint: string, first = 5): Promise<string[]> {
  // From now on: without a start date the list would begin with the site's earliest events.
  const data = await execute(endpoint, UpcomingEventsQuery, { first, startDate: new Date().toISOString() });
  return (data.events?.nodes ?? []).map(
    (event) => `${event.startDate ?? '?'} ${event.title ?? '(untitled)'} @ ${event.venues[0]?.title ?? 'no venue'}`,
  );
}

// Run as a script (not imported, as test/clients.test.ts does).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const endpoint = process.argv[2] ?? 'http://127.0.0.1:4000/graphql';
  for (const line of await upcomingTitles(endpoint)) console.log(line);
}

/**
 * The replay double's setup for the x source. X's GraphQL recordings (../shared/upstream/microblog) carry sidecars
 * with a `pattern` instead of a concrete URL, so each is answered by a route matching its operation's path and the
 * JSON `variables` of the request (the focal post of a TweetDetail). The anonymous path (guest token, then
 * TweetResultByRestId) has no recording: its envelope is written from the documented interface around a recorded
 * tweet result (test/fixtures/documented/x/README.txt).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readRecordingJson, type ReplayOptions, type ReplayRoute, type Seen } from '../helpers/replay.js';

export const DOCUMENTED_X = fileURLToPath(new URL('../fixtures/documented/x/', import.meta.url));

/** The focal post of each recorded TweetDetail answer. */
export const RECORDED_DETAILS = {
  '1649191520250245121': 'microblog/tweet-detail.TweetDetail.json',
  '1780666831310877100': 'microblog/tweet-detail-poll-card.TweetDetail.json',
  '1671508600538161153': 'microblog/tweet-detail-video.TweetDetail.json',
} as const;

/** A session's settings (the cookie values are placeholders: the double does not check them). */
export const SESSION = { AUTH_TOKEN: 'replay-auth-token', CT0: 'replay-ct0' };

export const variablesOf = (s: Seen): Record<string, unknown> => {
  try {
    return JSON.parse(s.query.get('variables') ?? '{}');
  } catch {
    return {};
  }
};

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };
const graphql = (op: string) => new RegExp(`^/(?:i/api/)?graphql/[A-Za-z0-9_-]+/${op}$`);

/** The recorded tweet result of a TweetDetail answer's focal post, in TweetResultByRestId's documented envelope. */
export function tweetResultAnswer(file: string, id: string): string {
  const entries = readRecordingJson(file).data.threaded_conversation_with_injections_v2.instructions.flatMap(
    (i: { entries?: unknown[] }) => i.entries ?? [],
  );
  const focal = entries.find((e: { entryId: string }) => e.entryId === `tweet-${id}`);
  return JSON.stringify({ data: { tweetResult: { result: focal.content.itemContent.tweet_results.result } } });
}

export function xReplay(extra: ReplayRoute[] = []): ReplayOptions {
  const details: ReplayRoute[] = Object.entries(RECORDED_DETAILS).map(([id, file]) => ({
    host: 'x.com',
    path: graphql('TweetDetail'),
    file,
    match: (s) => variablesOf(s).focalTweetId === id && variablesOf(s).cursor === undefined,
  }));
  const anonymous: ReplayRoute[] = Object.entries(RECORDED_DETAILS).map(([id, file]) => ({
    host: 'api.x.com',
    path: graphql('TweetResultByRestId'),
    text: tweetResultAnswer(file, id),
    headers: JSON_TYPE,
    name: `documented envelope around the focal post of ${file}`,
    match: (s) => variablesOf(s).tweetId === id,
  }));
  return {
    folders: [],
    routes: [
      ...extra,
      ...details,
      { host: 'x.com', path: graphql('SearchTimeline'), file: 'microblog/search-latest.SearchTimeline.json' },
      {
        method: 'POST',
        host: 'api.x.com',
        path: '/1.1/guest/activate.json',
        text: readFileSync(`${DOCUMENTED_X}guest-activate.json`, 'utf8'),
        headers: JSON_TYPE,
        name: 'test/fixtures/documented/x/guest-activate.json',
      },
      ...anonymous,
    ],
  };
}

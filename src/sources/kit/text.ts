/**
 * What a social post's text says about itself: the hashtags and @mentions written in it. Platforms that do not list
 * them separately (Instagram captions, Threads posts) are read this way; the result is in order of first use, without
 * repeats, at most 100 of each, and never guesses beyond the text.
 */

const HASHTAG = /(?:^|[^\p{L}\p{N}_&/])#([\p{L}\p{N}_]{1,100})/gu;
const MENTION = /(?:^|[^\p{L}\p{N}_.@/])@([A-Za-z0-9_](?:[A-Za-z0-9_.]{0,28}[A-Za-z0-9_])?)/gu;
const MAX = 100;

function collect(text: string | undefined, pattern: RegExp): string[] | undefined {
  if (!text) return undefined;
  const seen = new Set<string>();
  for (const m of text.matchAll(pattern)) {
    seen.add(m[1]);
    if (seen.size >= MAX) break;
  }
  return seen.size > 0 ? [...seen] : undefined;
}

/** `#tags` in a text, without the `#`. */
export const hashtagsOf = (text: string | undefined): string[] | undefined => collect(text, HASHTAG);

/** `@handles` in a text, without the `@`. */
export const mentionsOf = (text: string | undefined): string[] | undefined => collect(text, MENTION);

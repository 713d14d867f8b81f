/** The kit's reading of hashtags and mentions out of a post's text (src/sources/kit/text.ts). */
import { describe, expect, it } from 'vitest';
import { hashtagsOf, mentionsOf } from '../../src/sources/kit/text.js';

describe('hashtags and mentions in a text', () => {
  it('in order of first use, without repeats or their marks', () => {
    expect(hashtagsOf('Today, #LetsGetLoud for #heroes! #LetsGetLoud #MemorialDay')).toEqual(['LetsGetLoud', 'heroes', 'MemorialDay']);
    expect(mentionsOf('Here with @bdxchangefitness and @rayan.michaels, @bdxchangefitness.')).toEqual(['bdxchangefitness', 'rayan.michaels']);
  });

  it('letters of any script; not in addresses, e-mail or HTML entities', () => {
    expect(hashtagsOf('#QuédateEnCasa #第三隻 see https://x.com/#anchor &#39;')).toEqual(['QuédateEnCasa', '第三隻']);
    expect(mentionsOf('mail me@example.com or see https://t.co/@x')).toBeUndefined();
  });

  it('nothing to read is undefined, and a flood is capped at 100', () => {
    expect(hashtagsOf(undefined)).toBeUndefined();
    expect(hashtagsOf('no tags')).toBeUndefined();
    expect(hashtagsOf(Array.from({ length: 500 }, (_, i) => `#t${i}`).join(' '))).toHaveLength(100);
  });
});

/** The kit's HTML-to-text reader (src/sources/kit/html-text.ts over kit/web/block-text.ts), as Hacker News and Mastodon answer text. */
import { describe, expect, it } from 'vitest';
import { htmlText } from '../../src/sources/kit/html-text.js';

describe('kit htmlText', () => {
  it.each([
    ['<p>Not to change the subject, but...<p>...can we talk?<p>Can that be?', 'Not to change the subject, but...\n\n...can we talk?\n\nCan that be?'],
    ['<p>Hello <a href="https://x.test">x.test</a> &amp; you</p><p>Bye</p>', 'Hello x.test & you\n\nBye'],
    ['<p>Jobs<p><pre><code>    * one\n    * two\n</code></pre>\nEnd', 'Jobs\n\n    * one\n    * two\n\nEnd'],
    ['line one<br>line   two<ul><li>a</li><li>b</li></ul>', 'line one\nline two\n- a\n- b'],
    ['<script>alert(1)</script>   ', undefined],
    ['', undefined],
  ])('%j', (html, text) => expect(htmlText(html)).toBe(text));

  it('a hostile nesting is cut where the bounded DOM cuts it, without throwing', () => {
    expect(htmlText('shallow' + '<div>'.repeat(100_000) + 'deep')).toBe('shallow');
  });
});

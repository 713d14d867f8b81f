/** SPEC.md Common conventions 5 and CONTRACT.md "Text and documents": how maxTextLength cuts text. */
import { describe, expect, it } from 'vitest';
import { cutText, truncateTexts } from '../src/render/truncate.js';

describe('maxTextLength', () => {
  it('cuts a longer text to N-1 characters plus …, so it is never longer than N', () => {
    expect(cutText('abcdefghij', 5)).toBe('abcd…');
    expect(cutText('abcde', 5)).toBe('abcde');
  });

  it('never splits a surrogate pair', () => {
    const cut = cutText('ab😀cdef', 4); // the pair would straddle the cut
    expect(cut).toBe('ab…');
    expect(cut.length).toBeLessThanOrEqual(4);
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(cut)).toBe(false);
  });

  it('never cuts screenshots, marks the object that had text cut, and leaves the input whole', () => {
    const page = { text: 'x'.repeat(20), screenshot: 'y'.repeat(20), isTruncated: false };
    const data = { pages: [page], title: 'short' };
    const out = truncateTexts(data, 10);
    expect(out.pages[0]).toEqual({ text: 'x'.repeat(9) + '…', screenshot: 'y'.repeat(20), isTruncated: true });
    expect(out.title).toBe('short');
    expect(page.text).toHaveLength(20);
    expect(page.isTruncated).toBe(false);
  });
});

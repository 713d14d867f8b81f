/** Embedded page data (src/sources/kit/embedded.ts): script islands, JSON-LD and JS assignments, read linearly. */
import { describe, expect, it } from 'vitest';
import { assignedJson, jsonLd, scriptJsonById, scripts } from '../../src/sources/kit/embedded.js';
import { haveRecordings, readRecording, skipReason } from '../helpers/replay.js';

describe('embedded page data', () => {
  it('reads a script island by id, JSON-LD (arrays and @graph flattened) and a balanced assignment', () => {
    const html =
      '<html><head><script id="__NEXT_DATA__" type="application/json">{"props":{"n":1}}</script>' +
      '<script type="application/ld+json">[{"@type":"Product"},{"@graph":[{"@type":"Offer"}]}]</script>' +
      '<script type="application/ld+json">{not json</script>' +
      '<script>window.__STATE__ = {"a":"}\\"{ ]","b":[1,{"c":2}]}; start();</script></head></html>';
    expect(scriptJsonById(html, '__NEXT_DATA__')).toEqual({ props: { n: 1 } });
    expect(jsonLd(html)).toEqual([{ '@type': 'Product' }, { '@type': 'Offer' }]);
    expect(assignedJson(html, 'window.__STATE__')).toEqual({ a: '}"{ ]', b: [1, { c: 2 }] });
    expect(assignedJson(html, 'window.__MISSING__')).toBeUndefined();
    expect(scriptJsonById(html, 'nope')).toBeUndefined();
  });

  it('an unclosed script and a truncated assignment are answered as absent, not thrown', () => {
    expect(assignedJson('<script>var s = {"a": [1, 2', 's')).toBeUndefined();
    expect(scripts('<script id="x">{"a":1}')).toEqual([{ attrs: { id: 'x' }, text: '{"a":1}' }]);
  });

  it('a page of 200,000 unclosed tags is scanned without building a tree', () => {
    const html = '<div>'.repeat(200_000) + '<script id="s">{"ok":true}</script>';
    expect(scriptJsonById(html, 's')).toEqual({ ok: true });
  });
});

describe.skipIf(!haveRecordings('tiktok'))(`embedded data in a recorded page${skipReason('tiktok')}`, () => {
  it('finds the rehydration island of a recorded TikTok video page', () => {
    const data = scriptJsonById(readRecording('tiktok/video-page.7571863205253778710.html'), '__UNIVERSAL_DATA_FOR_REHYDRATION__') as any;
    expect(Object.keys(data.__DEFAULT_SCOPE__)).toContain('webapp.video-detail');
  });
});

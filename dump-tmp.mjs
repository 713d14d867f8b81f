import { getDocumentProxy } from 'unpdf';
import { readFileSync } from 'node:fs';
const [file, pageNo, pat] = process.argv.slice(2);
const doc = await getDocumentProxy(new Uint8Array(readFileSync(file)), { isEvalSupported: false, disableFontFace: true, verbosity: 0 });
const page = await doc.getPage(Number(pageNo || 1));
const tc = await page.getTextContent();
for (const it of tc.items) {
  if (!it.str) continue;
  if (pat && !new RegExp(pat).test(it.str)) continue;
  const s = Math.hypot(it.transform[0], it.transform[1]).toFixed(1);
  console.log(s, it.fontName, tc.styles[it.fontName]?.fontFamily, it.transform[4].toFixed(1), it.transform[5].toFixed(1), JSON.stringify(it.str));
}

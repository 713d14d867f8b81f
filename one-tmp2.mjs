import fs from 'node:fs';
import { getDocumentProxy } from 'unpdf';
const t = Date.now();
const doc = await getDocumentProxy(new Uint8Array(fs.readFileSync(process.argv[2])));
const page = await doc.getPage(1);
const c = await page.getTextContent();
console.log('text', c.items.length, Date.now() - t, 'ms');

/** The version of Quarry, read once from package.json (src/cli or dist/cli are two levels below it). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const manifest = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'package.json');

export const VERSION: string = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;

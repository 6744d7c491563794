import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Fails when src/api/schema.d.ts is not what `npm run gen:api` makes of openapi.yaml. */
const generated = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'api-types-')), 'schema.d.ts');
execFileSync(path.join('node_modules', '.bin', 'openapi-typescript'), ['openapi.yaml', '-o', generated], {
  stdio: 'pipe',
});
const normalise = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .join('\n');
const expected = normalise(fs.readFileSync(generated, 'utf8'));
const actual = normalise(fs.readFileSync(path.join('src', 'api', 'schema.d.ts'), 'utf8'));
fs.rmSync(path.dirname(generated), { recursive: true, force: true });
if (expected !== actual) {
  process.stderr.write('src/api/schema.d.ts is stale: run `npm run gen:api` and commit the result.\n');
  process.exit(1);
}
process.stdout.write('src/api/schema.d.ts matches openapi.yaml\n');

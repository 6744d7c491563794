import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** Sizes of the built app's scripts and styles (raw and gzipped), the initial ones and all. */
export function printBundleSizes(distDir = 'dist'): void {
  const staticDir = path.join(distDir, 'static');
  if (!fs.existsSync(staticDir)) {
    process.stdout.write('bundle: no build found (run `npm run build` first)\n');
    return;
  }
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const files = ['js', 'css'].flatMap((kind) => {
    const dir = path.join(staticDir, kind);
    return fs.existsSync(dir)
      ? fs
          .readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile() && entry.name.endsWith(`.${kind}`))
          .map((entry) => path.join(entry.parentPath, entry.name))
      : [];
  });
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  let all = 0;
  let allGzip = 0;
  let initial = 0;
  let initialGzip = 0;
  let firstLoadScriptsGzip = 0;
  for (const file of files) {
    const content = fs.readFileSync(file);
    const gzip = gzipSync(content).length;
    all += content.length;
    allGzip += gzip;
    if (html.includes(path.basename(file))) {
      initial += content.length;
      initialGzip += gzip;
      if (file.endsWith('.js')) firstLoadScriptsGzip += gzip;
    }
  }
  process.stdout.write(
    `bundle: initial ${kb(initial)} (${kb(initialGzip)} gzip), all ${files.length} files ${kb(all)} (${kb(allGzip)} gzip)\n`,
  );
  // Every route, /login included, loads the scripts of index.html first; the rest are loaded on demand.
  process.stdout.write(`bundle: first-load JavaScript of /login ${kb(firstLoadScriptsGzip)} gzip (goal ≤ 150 KiB)\n`);
}

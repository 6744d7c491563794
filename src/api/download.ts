/**
 * The browser download: an object URL of the blob clicked through a temporary hidden link, then revoked once the
 * browser has taken it (after `revokeAfterMs`).
 */
export function saveFile(blob: Blob, fileName: string, revokeAfterMs = 1_000): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), revokeAfterMs);
}

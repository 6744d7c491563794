import { ApiError, serverMessageOf } from './errors';

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

/** How far a streamed download has come: bytes received, and its size when the answer has a Content-Length. */
export interface StreamProgress {
  received: number;
  size: number | undefined;
}

/**
 * The file of an openapi-fetch call made with `parseAs: 'stream'`, read chunk by chunk so that `onProgress` sees the
 * bytes as they arrive. A refusal throws an ApiError with the server's message: openapi-fetch has read a refusal's
 * body already (its `error`), whatever the answer is parsed as.
 */
export async function readStreamedFile(
  result: { error?: unknown; response: Response },
  mediaType: string,
  onProgress: (progress: StreamProgress) => void,
): Promise<Blob> {
  const { response } = result;
  if (!response.ok) throw new ApiError(response.status, serverMessageOf(result.error), result.error);
  const size = Number(response.headers.get('content-length')) || undefined;
  const body = response.body;
  if (!body) return new Blob([await response.arrayBuffer()], { type: mediaType });
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  onProgress({ received, size });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress({ received, size });
  }
  return new Blob(chunks as BlobPart[], { type: mediaType });
}

// The entry of the receipts PDF worker thread (pdfRender.ts): TypeScript through tsx, as in the server's own thread.
import { register } from 'tsx/esm/api';

register();
await import('./pdfWorker.ts');

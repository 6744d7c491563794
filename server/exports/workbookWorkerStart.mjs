// The entry of the workbook worker thread (workbookRender.ts): TypeScript through tsx, as in the server's own thread.
import { register } from 'tsx/esm/api';

register();
await import('./workbookWorker.ts');

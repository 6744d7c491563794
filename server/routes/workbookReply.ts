import type { FastifyReply, FastifyRequest } from 'fastify';
import { requireCaller } from '../auth/access.js';
import { type ExportSlots, exportOwner } from '../exports/exportSlots.js';
import { type BuiltWorkbook, WORKBOOK_MEDIA_TYPE, type WorkbookRequester } from '../exports/workbookParts.js';

/**
 * A report page's workbook as the download (issue 34), for every route that answers one: its export slot is taken
 * before anything is read (429 with Retry-After beyond the caller's or the server's exports) and given back when the
 * answer ends, however it ends; the build is told when the caller goes away. The caller's filters have been checked
 * as the page's own operations check them.
 */
export async function replyWithWorkbook(
  request: FastifyRequest,
  reply: FastifyReply,
  slots: ExportSlots,
  build: (requester: WorkbookRequester, signal: AbortSignal) => Promise<BuiltWorkbook>,
) {
  const caller = requireCaller(request);
  const release = slots.take(exportOwner(caller.user.id), reply);
  const gone = new AbortController();
  reply.raw.once('close', () => gone.abort());
  try {
    const workbook = await build({ visibility: caller.grants, email: caller.user.email }, gone.signal);
    return reply
      .type(WORKBOOK_MEDIA_TYPE)
      .header('content-disposition', `attachment; filename="${workbook.name}"`)
      .header('cache-control', 'no-store')
      .send(workbook.bytes);
  } catch (error) {
    release();
    throw error;
  }
}

import { fromCallback } from 'xstate';
import type { createQueryPageMachine } from './queryPageMachine';

type QueryPageMachine<TPanels extends object> = ReturnType<typeof createQueryPageMachine<TPanels>>;

/**
 * A query page whose query comes from the page machine around it (`report.load`) rather than from the header's
 * filters alone: the page machine adds what only it knows (the outlet of its path, the year it shows). The report
 * then follows nothing itself; its panels, retries, header lock and export are the factory's.
 */
export function reportOfPage<TPanels extends object>(machine: QueryPageMachine<TPanels>): QueryPageMachine<TPanels> {
  return machine.provide({ actors: { followHeaderFilters: fromCallback(() => undefined) } });
}

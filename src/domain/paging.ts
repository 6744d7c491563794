/** The last page of `total` rows shown `rowsPerPage` at a time (1 when there are none). */
export function lastPage(total: number, rowsPerPage: number): number {
  return Math.max(1, Math.ceil(total / rowsPerPage));
}

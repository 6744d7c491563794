import { describe, expect, it } from 'vitest';
import { workbookPagesAllowed } from '../../src/domain/export';
import { SUBSCRIBABLE_PAGES, subscriptionFileBase } from '../../src/domain/reportSubscriptions';
import {
  isWorkbookPage,
  pathMatches,
  REPORT_WORKBOOKS,
  reportWorkbook,
  routePathId,
  workbookFileName,
  workbookOfPagePath,
} from '../../src/domain/reportWorkbooks';

describe('the report pages’ workbooks', () => {
  it('titles each workbook as the page a subscription names, and every workbook’s page may be subscribed to', () => {
    for (const { path, title } of SUBSCRIBABLE_PAGES) {
      const workbook = workbookOfPagePath(path);
      if (workbook) expect(workbook.title).toBe(title);
    }
    for (const workbook of REPORT_WORKBOOKS) {
      expect(SUBSCRIBABLE_PAGES.map((page) => page.path)).toContain(workbook.pagePath);
    }
    expect(workbookOfPagePath('/shopper-connect/export')).toBeUndefined();
  });

  it('names the download after the page and its days, as the server does', () => {
    expect(workbookFileName('peak_hours', { start: '2026-03-02', end: '2026-03-08' })).toBe(
      'mall-peak-hours_2026-03-02_2026-03-08.xlsx',
    );
    expect(reportWorkbook('member').operationPath).toBe('/api/mall_report/member/workbook');
    // A month page's workbook is named after its month.
    expect(workbookFileName('rent_statements', { start: '2026-02-01', end: '2026-02-28' })).toBe(
      'rent-statements_2026-02.xlsx',
    );
    expect(REPORT_WORKBOOKS.filter((workbook) => workbook.withHours).map((workbook) => workbook.page)).toEqual([
      'peak_hours',
      'member',
    ]);
    // The Export page offers the date-range pages of the header's malls; month, year and outlet pages' workbooks
    // are their subscriptions'.
    expect(workbookPagesAllowed(() => true)).toEqual([
      'mall_home',
      'mall_gmv',
      'peak_hours',
      'payment_methods',
      'member',
      'refunds',
      'voucher_redemption',
    ]);
    expect(workbookFileName('sales_review', { start: '2026-03-09', end: '2026-03-15' })).toBe(
      'sales-review_2026-03-09_2026-03-15.xlsx',
    );
    expect(workbookFileName('sales_analysis', { start: '2026-03-02', end: '2026-03-08' })).toBe(
      'sales-analysis_2026-03-02_2026-03-08.xlsx',
    );
    expect(reportWorkbook('sales_analysis')).toMatchObject({
      operationPath: '/outlets/salesAnalysis/workbook',
      scope: 'outlet',
      period: 'range',
    });
    expect(isWorkbookPage('mall_gmv')).toBe(true);
    expect(workbookFileName('cross_spending', { start: '2026-03-09', end: '2026-03-15' })).toBe(
      'cross-spending_2026-03-09_2026-03-15.xlsx',
    );
    expect(reportWorkbook('cross_spending')).toMatchObject({
      operationPath: '/api/mall_report/crossSpending/workbook',
      scope: 'outlet',
    });
    expect(isWorkbookPage('cross_spending')).toBe(true);
    // The GTO Review's month, of the client's outlets the caller sees (the Export page offers malls' pages only).
    expect(workbookFileName('gto_review', { start: '2026-02-01', end: '2026-02-28' })).toBe('gto-review_2026-02.xlsx');
    expect(reportWorkbook('gto_review')).toMatchObject({
      title: 'GTO Review',
      pagePath: '/tenant-connect/gto-review',
      operationPath: '/api/gtoReport/summary/workbook',
      scope: 'client',
      period: 'month',
    });
    expect(workbookOfPagePath('/tenant-connect/gto-review')?.page).toBe('gto_review');
    expect(isWorkbookPage('cross_spending_details')).toBe(true);
    expect(isWorkbookPage('export')).toBe(false);
    // The tenant's pages of an outlet and a month: named after the month, as their subscriptions name the PDF.
    const february = { start: '2026-02-01', end: '2026-02-28' };
    expect(workbookFileName('gross_turnover', february)).toBe('gross-turnover_2026-02.xlsx');
    expect(workbookFileName('tenant_rent_statement', february)).toBe('rent-statement_2026-02.xlsx');
    for (const page of ['gross_turnover', 'tenant_rent_statement'] as const) {
      const workbook = reportWorkbook(page);
      expect(workbook).toMatchObject({ scope: 'outlet', period: 'month' });
      expect(workbookFileName(page, february)).toBe(`${subscriptionFileBase(workbook.pagePath)}_2026-02.xlsx`);
    }
    expect(reportWorkbook('tenant_rent_statement').operationPath).toBe('/api/tenant/rentStatement/workbook');
    expect(reportWorkbook('gross_turnover').operationPath).toBe('/api/gtoReport/outletMonths/workbook');
  });

  it('finds the workbook of a page of an id by its path, named as its subscription names the PDF', () => {
    const route = '/shopper-connect/mall-outlet/:id';
    expect(workbookOfPagePath('/shopper-connect/mall-outlet/12')?.page).toBe('mall_outlet');
    expect(workbookOfPagePath(route)?.page).toBe('mall_outlet');
    for (const path of [
      '/shopper-connect/mall-outlet/x',
      '/shopper-connect/mall-outlet/0',
      '/shopper-connect/mall-outlet/12/x',
    ]) {
      expect(workbookOfPagePath(path)).toBeUndefined();
      expect(pathMatches(route, path)).toBe(false);
    }
    expect(routePathId(route, '/shopper-connect/mall-outlet/2147483647')).toBe(2_147_483_647);
    expect(routePathId(route, '/shopper-connect/mall-outlet/2147483648')).toBeUndefined();
    expect(routePathId('/shopper-connect/mall-home', '/shopper-connect/mall-home')).toBeUndefined();
    expect(pathMatches('/shopper-connect/mall-home', '/shopper-connect/mall-home')).toBe(true);
    const days = { start: '2026-03-02', end: '2026-03-08' };
    const name = workbookFileName('mall_outlet', days, '12');
    expect(name).toBe('mall-outlet-12_2026-03-02_2026-03-08.xlsx');
    expect(name).toBe(`${subscriptionFileBase('/shopper-connect/mall-outlet/12')}_2026-03-02_2026-03-08.xlsx`);
  });
});

import type { ReportSubscription } from '../../src/api/reportSubscriptions';
import type { SubscriptionTarget } from '../../src/domain/reportSubscriptions';

/** Fixtures of the report subscription tests: Mall Home of client 1's mall 2, and a subscription of it. */

export const MALL_HOME_TARGET: SubscriptionTarget = {
  clientId: 1,
  pagePath: '/shopper-connect/mall-home',
  pageTitle: 'Mall Home',
  filters: 'client=1&malls=2&from=2026-03-01&to=2026-03-07',
};

export const RECIPIENTS = [
  { id: 2, email: 'operator@demo.mall' },
  { id: 5, email: 'finance@demo.mall' },
];

export const RENDERING_ON = { available: true, message: '' };
export const NO_BROWSER_MESSAGE =
  'Report subscriptions are off: this server has no browser to render PDFs (no executable at CHROMIUM_PATH /usr/bin/chromium). Ask your administrator to install Chromium or set CHROMIUM_PATH.';
export const RENDERING_OFF = { available: false, message: NO_BROWSER_MESSAGE };

export const SUBSCRIPTION: ReportSubscription = {
  id: 7,
  client_id: 1,
  name: 'Weekly Mall Home',
  page_path: '/shopper-connect/mall-home',
  page_title: 'Mall Home',
  filters: MALL_HOME_TARGET.filters,
  formats: ['pdf', 'workbook'],
  frequency: 'weekly',
  weekday: 1,
  month_day: null,
  hour: 8,
  time_zone: 'Asia/Kuala_Lumpur',
  recipients: [RECIPIENTS[0] as { id: number; email: string }],
  active: true,
  owner_email: 'operator@demo.mall',
  created_at: '2026-03-01T00:00:00.000Z',
  last_delivery: {
    period_key: 'W:2026-03-09',
    state: 'failed',
    error: 'render: took too long',
    created_at: '2026-03-09T00:05:00.000Z',
  },
};

/** The permissions of the subscription calls. */
export const SUBSCRIPTION_PERMISSIONS = [
  '/api/reportSubscriptions::Read',
  '/api/reportSubscriptions::Create',
  '/api/reportSubscriptions::Update',
  '/api/reportSubscriptions::Delete',
  '/api/reportSubscriptions/send::Create',
  '/api/reportSubscriptions/recipients::Read',
];

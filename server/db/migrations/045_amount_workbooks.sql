-- Issue 34: the Refunds and Voucher Redemption pages as Excel workbooks. Whoever reads a page's figures may take
-- them as its workbook (the demo roles say the same from the contract's tags).
INSERT INTO role_api_permissions (role_id, permission)
SELECT DISTINCT role_id, workbook FROM role_api_permissions
JOIN (VALUES
  ('/api/mall_report/refund::Read', '/api/mall_report/refund/workbook::Read'),
  ('/api/mall_report/voucher::Read', '/api/mall_report/voucher/workbook::Read')
) AS page (reads, workbook) ON permission = page.reads
ON CONFLICT DO NOTHING;

-- Issue 33: the occupancy cost band of each category of a client's outlets, as the client sets it: the share of its
-- sales (percent) a tenant of that kind usually pays in rent and service charge. A category without a row of its own
-- takes the band the industry publishes for its kind (src/domain/leases.ts, defaultOccupancyBand), if any.
CREATE TABLE occupancy_bands (
  client_id     integer NOT NULL REFERENCES clients (id),
  category      text NOT NULL CHECK (char_length(category) BETWEEN 1 AND 100),
  low_percent   numeric(5,2) NOT NULL CHECK (low_percent >= 0 AND low_percent <= 100),
  high_percent  numeric(5,2) NOT NULL CHECK (high_percent >= 0 AND high_percent <= 100),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, category),
  CONSTRAINT occupancy_bands_order CHECK (low_percent <= high_percent)
);

-- Whoever keeps the leases keeps the bands (the demo roles say the same from the contract's tags).
INSERT INTO role_api_permissions (role_id, permission)
SELECT DISTINCT r.role_id, p.permission
FROM role_api_permissions r
CROSS JOIN (VALUES ('/api/occupancyBands::Read'), ('/api/occupancyBands::Update')) AS p (permission)
WHERE r.permission = '/api/leases::Update'
ON CONFLICT DO NOTHING;

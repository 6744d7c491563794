-- Settings writes: every change leaves an audit_log row whose detail holds the row as it was and as it became
-- ({"before": ..., "after": ...}, null for a row created or deleted), written in the same transaction as the
-- change. The history of one row is read by its entity and id.
CREATE INDEX audit_log_entity ON audit_log (client_id, entity, entity_id);

-- Category and subcategory names are unique within a client whatever their case ('Food' and 'food' are one name).
CREATE UNIQUE INDEX categories_name_ci ON categories (client_id, lower(name));
CREATE UNIQUE INDEX subcategories_name_ci ON subcategories (client_id, lower(name));

-- Assignments are read by the category or subcategory they point at.
CREATE INDEX subcategories_category ON subcategories (client_id, category_id);
CREATE INDEX skus_subcategory ON skus (client_id, subcategory_id);

-- A meal timing starts before it ends (overlaps within an outlet are refused by the server, which locks the
-- outlet's row while it checks and writes).
ALTER TABLE meal_timings ADD CONSTRAINT meal_timings_order CHECK (start_time < end_time);

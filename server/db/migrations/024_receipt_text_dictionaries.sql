-- The outlets' dictionaries for compressing their receipts' printed texts (server/receipts/rawText.ts, format
-- 0x02). An outlet's first batch of texts makes its first dictionary; while it is not full, a later batch makes a
-- larger one from it and its own texts, and the latest is used from then on. A dictionary never changes and is
-- never deleted, since the texts compressed with it need it to be read; ids are never reused.
CREATE TABLE receipt_text_dictionaries (
  id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  client_id   integer NOT NULL,
  outlet_id   integer NOT NULL,
  dictionary  bytea NOT NULL CHECK (octet_length(dictionary) > 0),
  created_at  timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (client_id, outlet_id) REFERENCES outlets (client_id, id)
);
CREATE INDEX receipt_text_dictionaries_latest ON receipt_text_dictionaries (client_id, outlet_id, id DESC);

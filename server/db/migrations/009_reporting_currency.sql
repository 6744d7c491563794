-- Money of malls in different currencies is never added as it is: a client reports in one currency, and figures
-- of its malls in other currencies are converted at the rate of their month before they are summed.

ALTER TABLE clients
  ADD COLUMN reporting_currency text NOT NULL DEFAULT 'SGD' CHECK (reporting_currency ~ '^[A-Z]{3}$');

-- One unit of `currency` is worth `rate` units of the client's reporting currency over `month`.
CREATE TABLE exchange_rates (
  client_id  integer NOT NULL REFERENCES clients (id),
  month      date NOT NULL CHECK (month = date_trunc('month', month)::date),
  currency   text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  rate       numeric(20, 10) NOT NULL CHECK (rate > 0),
  PRIMARY KEY (client_id, currency, month)
);

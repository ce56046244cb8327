import type { MigrationStep } from './step';

export default {
  version: 14,
  name: "the search index's row map in enrolment order",
  sql: `
DROP TRIGGER customers_search_insert;
DROP TRIGGER customers_search_update;
DROP TRIGGER customers_search_delete;

CREATE TABLE customer_search_rows_new (
  seq          INTEGER PRIMARY KEY,
  customer_id  TEXT NOT NULL,
  created_at   INTEGER NOT NULL
);
INSERT INTO customer_search_rows_new (seq, customer_id, created_at)
  SELECT r.seq, r.customer_id, c.created_at FROM customer_search_rows r JOIN customers c ON c.id = r.customer_id;
DROP TABLE customer_search_rows;
ALTER TABLE customer_search_rows_new RENAME TO customer_search_rows;
CREATE UNIQUE INDEX customer_search_rows_customer ON customer_search_rows (created_at, customer_id);

CREATE TRIGGER customers_search_insert AFTER INSERT ON customers BEGIN
  INSERT INTO customer_search_rows (customer_id, created_at) VALUES (new.id, new.created_at);
  INSERT INTO customer_search (rowid, scope, name, email, external, phone)
    SELECT (SELECT seq FROM customer_search_rows WHERE created_at = new.created_at AND customer_id = new.id), 
      'o' || hex(new.org_id) || 'm' || new.livemode || ' c' || hex(new.card_id),
      new.name,
      coalesce(new.email, '') || ' ' || coalesce(new.email_norm, ''),
      new.external_id,
      CASE WHEN new.phone_norm IS NULL THEN '' ELSE substr(new.phone_norm, 2) || ' ' || substr(new.phone_norm, 3) || ' ' || substr(new.phone_norm, 4) || ' ' || substr(new.phone_norm, 5) END
        || ' ' || replace(replace(replace(replace(replace(replace(replace(coalesce(new.phone, ''), ' ', ''), '-', ''), '.', ''), '(', ''), ')', ''), '+', ''), '/', '');
END;
CREATE TRIGGER customers_search_update AFTER UPDATE OF org_id, card_id, livemode, name, email, email_norm, phone, phone_norm, external_id, id, created_at ON customers BEGIN
  UPDATE customer_search_rows SET customer_id = new.id, created_at = new.created_at
    WHERE (new.id IS NOT old.id OR new.created_at IS NOT old.created_at) AND created_at = old.created_at AND customer_id = old.id;
  DELETE FROM customer_search WHERE rowid = (SELECT seq FROM customer_search_rows WHERE created_at = new.created_at AND customer_id = new.id);
  INSERT INTO customer_search (rowid, scope, name, email, external, phone)
    SELECT (SELECT seq FROM customer_search_rows WHERE created_at = new.created_at AND customer_id = new.id), 
      'o' || hex(new.org_id) || 'm' || new.livemode || ' c' || hex(new.card_id),
      new.name,
      coalesce(new.email, '') || ' ' || coalesce(new.email_norm, ''),
      new.external_id,
      CASE WHEN new.phone_norm IS NULL THEN '' ELSE substr(new.phone_norm, 2) || ' ' || substr(new.phone_norm, 3) || ' ' || substr(new.phone_norm, 4) || ' ' || substr(new.phone_norm, 5) END
        || ' ' || replace(replace(replace(replace(replace(replace(replace(coalesce(new.phone, ''), ' ', ''), '-', ''), '.', ''), '(', ''), ')', ''), '+', ''), '/', '');
END;
CREATE TRIGGER customers_search_delete AFTER DELETE ON customers BEGIN
  DELETE FROM customer_search WHERE rowid = (SELECT seq FROM customer_search_rows WHERE created_at = old.created_at AND customer_id = old.id);
  DELETE FROM customer_search_rows WHERE created_at = old.created_at AND customer_id = old.id;
END;
`,
} satisfies MigrationStep;

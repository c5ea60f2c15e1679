-- Builds the benchmark database (run once, outside callgrind):
-- 200,000 orders over 20,000 customers and 2,000 products.
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, country TEXT, since INTEGER);
CREATE TABLE products (id INTEGER PRIMARY KEY, title TEXT, category TEXT, price REAL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer INTEGER, product INTEGER,
                     qty INTEGER, day INTEGER);
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
INSERT INTO customers
SELECT i, 'customer-' || i, 'C' || (i * 7919 % 37), 2000 + i % 25 FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
INSERT INTO products
SELECT i, 'product ' || hex(i * 2654435761 % 4294967296), 'cat' || (i % 23),
       round((i * 7577 % 10000) / 100.0, 2) FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000)
INSERT INTO orders
SELECT i, 1 + (i * 48271 % 20000), 1 + (i * 16807 % 2000), 1 + i % 9,
       (i * 69621 % 3650) FROM n;
COMMIT;
CREATE INDEX orders_customer ON orders(customer);
ANALYZE;

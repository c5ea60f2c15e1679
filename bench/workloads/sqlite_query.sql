-- Queries profiled by the benchmark (read-only; the database is made by
-- sqlite_gen.sql). Joins, GROUP BY, ORDER BY, DISTINCT, a correlated
-- subquery and string functions: many different parts of the library.
-- Sized to run in about 5 s under callgrind.
PRAGMA temp_store = MEMORY;
SELECT c.country, count(*), sum(o.qty * p.price) AS revenue
  FROM customers c JOIN orders o ON o.customer = c.id
                   JOIN products p ON p.id = o.product
 WHERE c.id <= 2000
 GROUP BY c.country ORDER BY revenue DESC LIMIT 5;
SELECT p.category, avg(o.qty), max(p.price), count(DISTINCT o.customer)
  FROM orders o JOIN products p ON p.id = o.product
 WHERE o.day BETWEEN 100 AND 250
 GROUP BY p.category ORDER BY 1 LIMIT 5;
SELECT o.day % 7 AS weekday, count(*), total(o.qty)
  FROM orders o WHERE o.id <= 30000 GROUP BY weekday ORDER BY weekday;
SELECT c.name, (SELECT count(*) FROM orders o WHERE o.customer = c.id) AS n
  FROM customers c WHERE c.id % 10 = 3 ORDER BY n DESC, c.name LIMIT 5;
SELECT upper(substr(p.title, 9, 4)) AS k, count(*)
  FROM orders o JOIN products p ON p.id = o.product
 WHERE o.id <= 30000
 GROUP BY k ORDER BY count(*) DESC, k LIMIT 5;
SELECT customer, product, qty FROM orders WHERE id <= 50000
 ORDER BY qty DESC, day, id LIMIT 3;

-- Parley demo: what the embedded default catalog (Delta tables in a local warehouse) answers
-- without any plugin loaded.
-- Run it with `make run`, or `build/parley -f examples/demo.sql` (add `--output csv|json`).

-- Catalogs and namespaces, as Spark names them.
SHOW CATALOGS;
SHOW NAMESPACES;
USE default;
SHOW TABLES;

-- Spark configuration keys: set one, read it back, reset it.
SET spark.sql.shuffle.partitions=4;
SET spark.sql.shuffle.partitions;
RESET spark.sql.shuffle.partitions;

-- SELECT without FROM: literals, arithmetic and casts.
SELECT 1 + 1 AS two, 'parley' AS name, CAST('2024-01-01' AS DATE) AS d;
SELECT 7 / 2 AS ratio, 10 - 3 * 2 AS precedence, 1.5 * 2 AS decimal_product,
       CAST('42' AS INT) AS parsed, CAST(NULL AS STRING) AS nothing;

-- Predicates and conditional expressions.
SELECT CASE WHEN 3 > 2 THEN 'yes' ELSE 'no' END AS case_result,
       5 IN (1, 3, 5) AS in_list,
       7 BETWEEN 1 AND 10 AS in_range,
       'parley' LIKE 'par%' AS like_prefix,
       NULL IS NULL AS null_check,
       NOT (1 = 2) AND (TRUE OR FALSE) AS logic;

-- Filters over a single row keep it or drop it.
SELECT 'kept' AS outcome WHERE 1 < 2;
SELECT 'dropped' AS outcome WHERE 1 > 2;

-- How Parley plans a query.
EXPLAIN SELECT 1 + 1 AS two;

-- Delta tables in the local warehouse (--warehouse, default ./warehouse): create, write through
-- the two-phase commit, overwrite a partition, travel back in time, read the table's history.
DROP TABLE IF EXISTS demo_orders;
CREATE TABLE demo_orders (id INT NOT NULL, region STRING, amount DECIMAL(10, 2))
  USING delta PARTITIONED BY (region);
INSERT INTO demo_orders VALUES (1, 'eu', 10.50), (2, 'us', 7.25), (3, 'eu', 3.00);
INSERT OVERWRITE demo_orders PARTITION (region = 'us') VALUES (4, 12.00);
SELECT region, count(*) AS orders, sum(amount) AS total FROM demo_orders
  GROUP BY region ORDER BY region;
SELECT id, region, amount FROM demo_orders VERSION AS OF 1 ORDER BY id;
DESCRIBE HISTORY demo_orders;
DROP TABLE IF EXISTS demo_big_orders;
CREATE TABLE demo_big_orders USING delta AS SELECT id, amount FROM demo_orders WHERE amount > 5;
SHOW CREATE TABLE demo_big_orders;
EXPLAIN ANALYZE INSERT INTO demo_big_orders VALUES (9, 99.99);

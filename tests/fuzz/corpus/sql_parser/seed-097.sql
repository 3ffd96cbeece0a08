CREATE TABLE p (id INT, part STRING) USING delta PARTITIONED BY (part)
TBLPROPERTIES ('delta.enableRowTracking' = 'true')
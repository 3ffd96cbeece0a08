MERGE INTO p USING (SELECT * FROM VALUES (3, 'y'), (5, 'y') AS s(id, part)) s
ON p.id = s.id AND p.part = s.part
WHEN MATCHED THEN UPDATE SET id = 30
WHEN NOT MATCHED THEN INSERT *
MERGE INTO events e USING changes c ON e.id = c.id
WHEN MATCHED AND c.op = 'd' THEN DELETE
WHEN MATCHED THEN UPDATE SET amount = c.amount
WHEN NOT MATCHED AND c.id IS NOT NULL THEN INSERT (id, region, amount) VALUES (c.id, 'new', c.amount)
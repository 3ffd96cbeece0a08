CREATE TABLE before_delete USING delta AS
SELECT id, _metadata.row_id AS row_id, _metadata.row_commit_version AS row_version FROM p
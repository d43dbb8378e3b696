CREATE TABLE IF NOT EXISTS ${table} (
    id UInt64,
    name String,
    at DateTime64(3, 'UTC')
) ENGINE = MergeTree ORDER BY id;

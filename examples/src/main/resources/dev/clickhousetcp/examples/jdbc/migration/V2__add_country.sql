ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS country LowCardinality(String) DEFAULT 'unknown' AFTER name;

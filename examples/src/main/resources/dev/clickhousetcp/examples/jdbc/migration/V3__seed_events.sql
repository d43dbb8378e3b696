-- two statements in one script: Flyway splits them and runs them one by one
INSERT INTO ${table} (id, name, country, at) VALUES (1, 'signup', 'NP', '2024-06-01 10:00:00.250');
INSERT INTO ${table} (id, name, at) VALUES (2, 'login', '2024-06-01 10:05:00.000');

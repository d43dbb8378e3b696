package dev.clickhousetcp.observe;

import java.util.List;

/**
 * Statements with secrets and the text the client records for each: ClickHouse's own cases
 * (authentication, table functions, table and database engines, dictionaries, named collections, backups,
 * encryption functions, headers, connection strings). Every secret contains {@code Secret-}; hosts are
 * closed loopback ports so a server fails such a statement quickly.
 */
public final class MaskingCorpus {
    private MaskingCorpus() {
    }

    /** A statement and its masked text. */
    public record Case(String sql, String masked) {
    }

    /** The cases; the object names are unqualified so a test can run them in a database of its own. */
    public static final List<Case> CASES = List.of(
            new Case("CREATE USER IF NOT EXISTS u1 IDENTIFIED WITH sha256_password BY 'Secret-1'",
                    "CREATE USER IF NOT EXISTS u1 IDENTIFIED WITH sha256_password BY '[HIDDEN]'"),
            new Case("CREATE USER u2 IDENTIFIED BY 'Secret-2' HOST LOCAL DEFAULT ROLE NONE",
                    "CREATE USER u2 IDENTIFIED BY '[HIDDEN]' HOST LOCAL DEFAULT ROLE NONE"),
            new Case("alter user u3 identified with plaintext_password by 'Secret-3'",
                    "alter user u3 identified with plaintext_password by '[HIDDEN]'"),
            new Case("CREATE USER u4 IDENTIFIED WITH bcrypt_password BY 'Secret-4', plaintext_password BY 'Secret-4b'",
                    "CREATE USER u4 IDENTIFIED WITH bcrypt_password BY '[HIDDEN]', plaintext_password BY '[HIDDEN]'"),
            new Case("ALTER USER u5 ADD IDENTIFIED WITH double_sha1_password BY 'Secret-5'",
                    "ALTER USER u5 ADD IDENTIFIED WITH double_sha1_password BY '[HIDDEN]'"),
            new Case("CREATE USER u6 IDENTIFIED WITH sha256_hash BY "
                    + "'0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef' SALT 'Secret-6'",
                    "CREATE USER u6 IDENTIFIED WITH sha256_hash BY '[HIDDEN]' SALT '[HIDDEN]'"),
            new Case("CREATE USER u7 IDENTIFIED /* it's a comment */ BY 'Secret-7\\'s' -- it's another",
                    "CREATE USER u7 IDENTIFIED /* it's a comment */ BY '[HIDDEN]' -- it's another"),
            new Case("SELECT * FROM mysql('127.0.0.1:1', 'db', 'tbl', 'user', 'Secret-8')",
                    "SELECT * FROM mysql('127.0.0.1:1', 'db', 'tbl', 'user', '[HIDDEN]')"),
            new Case("SELECT * FROM postgresql('127.0.0.1:1', 'db', 'tbl', 'user', 'Secret-9')",
                    "SELECT * FROM postgresql('127.0.0.1:1', 'db', 'tbl', 'user', '[HIDDEN]')"),
            new Case("SELECT * FROM s3('http://127.0.0.1:1/bucket/x.csv', 'AKIDEXAMPLE', 'Secret-10', 'CSV', 'a String')",
                    "SELECT * FROM s3('http://127.0.0.1:1/bucket/x.csv', 'AKIDEXAMPLE', '[HIDDEN]', 'CSV', 'a String')"),
            new Case("SELECT * FROM s3('http://127.0.0.1:1/bucket/x.csv', 'AKIDEXAMPLE', 'Secret-11', 'Secret-11-token', 'CSV')",
                    "SELECT * FROM s3('http://127.0.0.1:1/bucket/x.csv', 'AKIDEXAMPLE', '[HIDDEN]', '[HIDDEN]', 'CSV')"),
            new Case("SELECT * FROM remote('127.0.0.1:1', 'db', 'tbl', 'user', 'Secret-12')",
                    "SELECT * FROM remote('127.0.0.1:1', 'db', 'tbl', '[HIDDEN]', '[HIDDEN]')"),
            new Case("SELECT * FROM remoteSecure('127.0.0.1:1', db.tbl, 'user', 'Secret-13')",
                    "SELECT * FROM remoteSecure('127.0.0.1:1', db.tbl, 'user', '[HIDDEN]')"),
            new Case("SELECT * FROM mongodb('127.0.0.1:1', 'db', 'coll', 'user', 'Secret-14', 'a String')",
                    "SELECT * FROM mongodb('127.0.0.1:1', 'db', 'coll', 'user', '[HIDDEN]', '[HIDDEN]')"),
            new Case("SELECT * FROM mongodb('mongodb://user:Secret-15@127.0.0.1:1/db', 'coll', 'a String')",
                    "SELECT * FROM mongodb('mongodb://user:[HIDDEN]@127.0.0.1:1/db', 'coll', 'a String')"),
            new Case("SELECT * FROM azureBlobStorage('DefaultEndpointsProtocol=http;AccountName=acc;AccountKey=Secret-16;"
                    + "BlobEndpoint=http://127.0.0.1:1/acc;', 'cont', 'x.csv', 'CSV')",
                    "SELECT * FROM azureBlobStorage('DefaultEndpointsProtocol=http;AccountName=acc;AccountKey=[HIDDEN];"
                    + "BlobEndpoint=http://127.0.0.1:1/acc;', 'cont', 'x.csv', 'CSV')"),
            new Case("SELECT * FROM azureBlobStorage('http://127.0.0.1:1/acc', 'cont', 'x.csv', 'acc', 'Secret-17', 'CSV')",
                    "SELECT * FROM azureBlobStorage('http://127.0.0.1:1/acc', 'cont', 'x.csv', 'acc', '[HIDDEN]', 'CSV')"),
            new Case("SELECT * FROM url('http://127.0.0.1:1/x.csv', CSV, 'a String', "
                    + "headers('Authorization' = 'Bearer Secret-18'))",
                    "SELECT * FROM url('http://127.0.0.1:1/x.csv', CSV, 'a String', headers('Authorization' = '[HIDDEN]'))"),
            new Case("SELECT * FROM s3('http://127.0.0.1:1/bucket/x.csv', 'CSV', 'a String', headers('X-Token' = 'Secret-19'))",
                    "SELECT * FROM s3('http://127.0.0.1:1/bucket/x.csv', 'CSV', 'a String', headers('X-Token' = '[HIDDEN]'))"),
            new Case("CREATE TABLE t_s3 (a String) ENGINE = S3('http://127.0.0.1:1/bucket/x.csv', 'AKIDEXAMPLE', "
                    + "'Secret-20', 'CSV')",
                    "CREATE TABLE t_s3 (a String) ENGINE = S3('http://127.0.0.1:1/bucket/x.csv', 'AKIDEXAMPLE', "
                    + "'[HIDDEN]', 'CSV')"),
            new Case("CREATE TABLE t_mysql (a String) ENGINE = MySQL('127.0.0.1:1', 'db', 'tbl', 'user', 'Secret-21')",
                    "CREATE TABLE t_mysql (a String) ENGINE = MySQL('127.0.0.1:1', 'db', 'tbl', 'user', '[HIDDEN]')"),
            new Case("CREATE TABLE t_pg (a String) ENGINE = PostgreSQL('127.0.0.1:1', 'db', 'tbl', 'user', 'Secret-22')",
                    "CREATE TABLE t_pg (a String) ENGINE = PostgreSQL('127.0.0.1:1', 'db', 'tbl', 'user', '[HIDDEN]')"),
            new Case("CREATE DATABASE d_mysql ENGINE = MySQL('127.0.0.1:1', 'db', 'user', 'Secret-23')",
                    "CREATE DATABASE d_mysql ENGINE = MySQL('127.0.0.1:1', 'db', 'user', '[HIDDEN]')"),
            new Case("CREATE DICTIONARY d_ch (id UInt64, v String) PRIMARY KEY id SOURCE(CLICKHOUSE(HOST 'localhost' "
                    + "PORT 9000 USER 'default' PASSWORD 'Secret-24' DB 'default' TABLE 't')) LAYOUT(FLAT()) LIFETIME(0)",
                    "CREATE DICTIONARY d_ch (id UInt64, v String) PRIMARY KEY id SOURCE(CLICKHOUSE(HOST 'localhost' "
                    + "PORT 9000 USER 'default' PASSWORD '[HIDDEN]' DB 'default' TABLE 't')) LAYOUT(FLAT()) LIFETIME(0)"),
            new Case("CREATE NAMED COLLECTION nc_1 AS url = 'http://127.0.0.1:1', port = 9000, password = 'Secret-25' "
                    + "NOT OVERRIDABLE",
                    "CREATE NAMED COLLECTION nc_1 AS url = '[HIDDEN]', port = '[HIDDEN]', password = '[HIDDEN]' "
                    + "NOT OVERRIDABLE"),
            new Case("ALTER NAMED COLLECTION nc_1 SET token = 'Secret-26', port = -1 DELETE url",
                    "ALTER NAMED COLLECTION nc_1 SET token = '[HIDDEN]', port = '[HIDDEN]' DELETE url"),
            new Case("BACKUP TABLE default.t TO S3('http://127.0.0.1:1/bucket/b', 'AKIDEXAMPLE', 'Secret-27')",
                    "BACKUP TABLE default.t TO S3('http://127.0.0.1:1/bucket/b', 'AKIDEXAMPLE', '[HIDDEN]')"),
            new Case("SELECT encrypt('aes-256-ofb', 'plaintext', 'Secret-28-Secret-28-Secret-28-12')",
                    "SELECT encrypt('aes-256-ofb', '[HIDDEN]')"),
            new Case("SELECT decrypt('aes-128-ecb', unhex('00'), 'Secret-29-012345')",
                    "SELECT decrypt('aes-128-ecb', '[HIDDEN]')"),
            new Case("SELECT * FROM deltaLake('http://127.0.0.1:1/bucket/d/', 'AKIDEXAMPLE', 'Secret-30')",
                    "SELECT * FROM deltaLake('http://127.0.0.1:1/bucket/d/', 'AKIDEXAMPLE', '[HIDDEN]')"),
            new Case("SELECT * FROM s3Cluster('default', 'http://127.0.0.1:1/bucket/x.csv', 'AKIDEXAMPLE', 'Secret-31', 'CSV')",
                    "SELECT * FROM s3Cluster('default', 'http://127.0.0.1:1/bucket/x.csv', 'AKIDEXAMPLE', '[HIDDEN]', 'CSV')"),
            new Case("SELECT * FROM s3(nc_x, url = 'http://127.0.0.1:1/b/x.csv', secret_access_key = 'Secret-32')",
                    "SELECT * FROM s3(nc_x, url = 'http://127.0.0.1:1/b/x.csv', secret_access_key = '[HIDDEN]')"),
            new Case("SELECT * FROM icebergS3('http://127.0.0.1:1/bucket/i/', 'AKIDEXAMPLE', 'Secret-33')",
                    "SELECT * FROM icebergS3('http://127.0.0.1:1/bucket/i/', 'AKIDEXAMPLE', '[HIDDEN]')"),
            new Case("CREATE TABLE t_mongo (a String) ENGINE = MongoDB('mongodb://user:Secret-34@127.0.0.1:1/db', 'coll')",
                    "CREATE TABLE t_mongo (a String) ENGINE = MongoDB('mongodb://user:[HIDDEN]@127.0.0.1:1/db', 'coll')"),
            new Case("SELECT * FROM hudi('http://127.0.0.1:1/bucket/h/', 'AKIDEXAMPLE', 'Secret-35')",
                    "SELECT * FROM hudi('http://127.0.0.1:1/bucket/h/', 'AKIDEXAMPLE', '[HIDDEN]')"),
            new Case("CREATE TABLE t_redis (k String, v String) ENGINE = Redis('127.0.0.1:1', 0, 'Secret-36') PRIMARY KEY k",
                    "CREATE TABLE t_redis (k String, v String) ENGINE = Redis('127.0.0.1:1', 0, '[HIDDEN]') PRIMARY KEY k"),
            new Case("INSERT INTO FUNCTION s3('http://127.0.0.1:1/b/y.csv', 'AKIDEXAMPLE', $$Secret-37$$, 'CSV') SELECT 1",
                    "INSERT INTO FUNCTION s3('http://127.0.0.1:1/b/y.csv', 'AKIDEXAMPLE', '[HIDDEN]', 'CSV') SELECT 1"),
            new Case("SELECT * FROM odbc('DSN=x;UID=u;PWD=Secret-38', 'db', 't')",
                    "SELECT * FROM odbc('DSN=x;UID=u;PWD=[HIDDEN]', 'db', 't')"),
            new Case("SELECT * FROM url('http://user:Secret-39@127.0.0.1:1/x.csv', CSV, 'a String')",
                    "SELECT * FROM url('http://user:[HIDDEN]@127.0.0.1:1/x.csv', CSV, 'a String')"),
            new Case("CREATE TABLE t_az (a String) ENGINE = AzureBlobStorage('http://127.0.0.1:1/acc', 'cont', 'x.csv', "
                    + "'acc', 'Secret-40', 'CSV')",
                    "CREATE TABLE t_az (a String) ENGINE = AzureBlobStorage('http://127.0.0.1:1/acc', 'cont', 'x.csv', "
                    + "'acc', '[HIDDEN]', 'CSV')"),
            new Case("CREATE DATABASE d_pg ENGINE = PostgreSQL('127.0.0.1:1', 'db', 'user', 'Secret-41')",
                    "CREATE DATABASE d_pg ENGINE = PostgreSQL('127.0.0.1:1', 'db', 'user', '[HIDDEN]')"),
            new Case("CREATE DICTIONARY d_my (id UInt64, v String) PRIMARY KEY id SOURCE(MYSQL(HOST '127.0.0.1' PORT 1 "
                    + "USER 'u' PASSWORD 'Secret-42' DB 'd' TABLE 't')) LAYOUT(FLAT()) LIFETIME(0)",
                    "CREATE DICTIONARY d_my (id UInt64, v String) PRIMARY KEY id SOURCE(MYSQL(HOST '127.0.0.1' PORT 1 "
                    + "USER 'u' PASSWORD '[HIDDEN]' DB 'd' TABLE 't')) LAYOUT(FLAT()) LIFETIME(0)"),
            new Case("SELECT * FROM gcs('http://127.0.0.1:1/b/x.csv', 'AKIDEXAMPLE', 'Secret-43')",
                    "SELECT * FROM gcs('http://127.0.0.1:1/b/x.csv', 'AKIDEXAMPLE', '[HIDDEN]')"),
            new Case("SELECT hex(aes_encrypt_mysql('aes-128-ecb', 'text', 'Secret-44-012345'))",
                    "SELECT hex(aes_encrypt_mysql('aes-128-ecb', '[HIDDEN]'))"),
            new Case("SELECT * FROM remote('127.0.0.1:1', currentDatabase(), 'tbl', 'user', 'Secret-45')",
                    "SELECT * FROM remote('127.0.0.1:1', currentDatabase(), 'tbl', '[HIDDEN]', '[HIDDEN]')"),
            new Case("SELECT * FROM postgresql(nc_pg, password = 'Secret-46')",
                    "SELECT * FROM postgresql(nc_pg, password = '[HIDDEN]')"),
            new Case("CREATE TABLE t_url (a String) ENGINE = URL('http://127.0.0.1:1/x', CSV, "
                    + "headers('Authorization' = 'Secret-47'))",
                    "CREATE TABLE t_url (a String) ENGINE = URL('http://127.0.0.1:1/x', CSV, "
                    + "headers('Authorization' = '[HIDDEN]'))"));
}

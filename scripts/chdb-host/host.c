/*
 * Minimal host for the embedded ClickHouse engine shipped as libchdb.so.
 *
 * Usage: chdb-host LIBCHDB_PATH clickhouse [clickhouse-local arguments...]
 *
 * Loads the library and hands everything after LIBCHDB_PATH (starting with the
 * program name "clickhouse") to chdb_query_cmdline(), which runs
 * clickhouse-local with those arguments. It returns an opaque chdb_result*;
 * its output goes to stdout, its error message (if any) to stderr.
 * SIGPIPE must be ignored: otherwise the whole process dies the first time a
 * client disconnects while the server is still writing to it.
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>

typedef void *(*query_cmdline_fn)(int argc, char **argv);
typedef const char *(*result_error_fn)(void *result);
typedef char *(*result_buffer_fn)(void *result);
typedef size_t (*result_length_fn)(void *result);

static void *need(void *lib, const char *name) {
    void *sym = dlsym(lib, name);
    if (sym == NULL) fprintf(stderr, "chdb-host: dlsym(%s) failed: %s\n", name, dlerror());
    return sym;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s LIBCHDB_PATH clickhouse [args...]\n", argv[0]);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
    if (lib == NULL) {
        fprintf(stderr, "chdb-host: dlopen(%s) failed: %s\n", argv[1], dlerror());
        return 3;
    }
    query_cmdline_fn run = (query_cmdline_fn) need(lib, "chdb_query_cmdline");
    result_error_fn error = (result_error_fn) need(lib, "chdb_result_error");
    result_buffer_fn buffer = (result_buffer_fn) need(lib, "chdb_result_buffer");
    result_length_fn length = (result_length_fn) need(lib, "chdb_result_length");
    if (!run || !error || !buffer || !length) return 4;

    void *result = run(argc - 2, argv + 2);
    if (result == NULL) return 0;
    const char *message = error(result);
    if (message != NULL && message[0] != '\0') {
        fprintf(stderr, "chdb-host: %s\n", message);
        return 1;
    }
    if (buffer(result) != NULL) fwrite(buffer(result), 1, length(result), stdout);
    return 0;
}

package dev.clickhousetcp.protocol;

import dev.clickhousetcp.data.ClickHouseZoneRules;
import dev.clickhousetcp.data.DecodeLimits;
import dev.clickhousetcp.data.ReadContext;
import dev.clickhousetcp.io.BinaryReader;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The golden bytes under {@code src/test/resources/golden/<server version>/}: packets captured from real
 * servers by {@code client/GoldenBytesCapture}, each {@code <name>.bin} with its {@code <name>.properties}
 * provenance (server version, negotiated revision, query, settings and, for Data blocks, the server's text
 * of every value).
 */
public final class Golden {
    /** The captured server versions: 26.7 (revision 54488) and 18.16 (revision 54412). */
    public static final List<String> VERSIONS = List.of("26.7.2", "18.16.1");

    private Golden() {
    }

    /** Whether {@code version} has the file {@code name} (e.g. {@code server/log}). */
    public static boolean has(String version, String name) {
        return Golden.class.getResource(resource(version, name + ".bin")) != null;
    }

    /** The bytes of {@code <version>/<name>.bin}. */
    public static byte[] bytes(String version, String name) {
        try (InputStream in = open(version, name + ".bin")) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The provenance of {@code <version>/<name>.bin}. */
    public static Properties properties(String version, String name) {
        Properties p = new Properties();
        try (InputStream in = open(version, name + ".properties")) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    /** The revision the files of {@code version} were captured at (the negotiated one). */
    public static long revision(String version) {
        return Long.parseLong(properties(version, "server/hello").getProperty("revision"));
    }

    /** The server's time zone, from its captured Hello. */
    public static ZoneId zone(String version) {
        try {
            BinaryReader r = reader(bytes(version, "server/hello"));
            r.readVarUInt();
            String tz = ServerHello.read(r, ProtocolRevision.CLIENT).timezone();
            return tz.isEmpty() ? ZoneOffset.UTC : ClickHouseZoneRules.zoneId(tz);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A fresh decoding context for the blocks of {@code version}. */
    public static ReadContext readContext(String version) {
        return new ReadContext(DecodeLimits.DEFAULT, zone(version), revision(version), null);
    }

    /** A reader over {@code bytes}. */
    public static BinaryReader reader(byte[] bytes) {
        return new BinaryReader(new ByteArrayInputStream(bytes), 1 << 12, 1 << 20);
    }

    /** The names (without extension) of the {@code .bin} files in {@code <version>/<dir>}, sorted. */
    public static List<String> names(String version, String dir) {
        URL url = Golden.class.getResource(resource(version, dir));
        if (url == null) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".bin"))
                    .map(n -> dir + "/" + n.substring(0, n.length() - 4)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static InputStream open(String version, String file) {
        InputStream in = Golden.class.getResourceAsStream(resource(version, file));
        if (in == null) {
            throw new IllegalArgumentException("no golden file " + version + "/" + file);
        }
        return in;
    }

    private static String resource(String version, String file) {
        return "/golden/" + version + "/" + file;
    }
}

package dev.clickhousetcp.data;

import dev.clickhousetcp.testsupport.ClickHouseServer;
import dev.clickhousetcp.testsupport.ClickHouseServers;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClickHouseZoneRules} against the server itself: for instants and wall-clock times around
 * every offset change of zones with unusual rules (gaps and overlaps, midnight transitions, 30- and
 * 45-minute offsets, a skipped day, negative DST), the wall clock must be what the server's
 * {@code toString} prints and the instant what its text parser stores.
 */
class ClickHouseZoneRulesTest {
    private static final DateTimeFormatter TEXT = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");
    static final List<String> ZONES = List.of("America/New_York", "Europe/Berlin", "America/Santiago",
            "America/Havana", "Asia/Beirut", "Australia/Lord_Howe", "America/St_Johns", "Asia/Tokyo",
            "Asia/Kolkata", "Pacific/Apia", "Africa/Monrovia", "America/Sao_Paulo", "Europe/Moscow",
            "Antarctica/Troll", "Pacific/Chatham", "Europe/Dublin", "Africa/Casablanca", "America/Nuuk",
            "Pacific/Kiritimati", "Asia/Kathmandu", "UTC", "Etc/GMT+5");

    @Test
    void printsAndParsesLikeTheServerAroundEveryTransition() {
        ClickHouseServer server = ClickHouseServers.modern();
        List<String> failures = new ArrayList<>();
        int javaPrintsOtherwise = 0;
        int javaParsesOtherwise = 0;
        for (String name : ZONES) {
            ZoneId zone = ZoneId.of(name);
            ClickHouseZoneRules rules = ClickHouseZoneRules.of(zone);
            TreeSet<Long> instants = new TreeSet<>();
            TreeSet<LocalDateTime> walls = new TreeSet<>();
            for (ZoneOffsetTransition t : transitions(zone.getRules())) {
                for (long d : new long[] {-90_000, -86_400, -7_201, -3_600, -1_800, -1, 0, 1, 1_799, 3_599, 3_600, 5_400, 86_399}) {
                    instants.add(t.toEpochSecond() + d);
                }
                for (LocalDateTime w : new LocalDateTime[] {t.getDateTimeBefore(), t.getDateTimeAfter(),
                    t.getDateTimeBefore().toLocalDate().atStartOfDay(), t.getDateTimeAfter().toLocalDate().atStartOfDay()}) {
                    for (long d : new long[] {-3_600, -1_800, -1, 0, 1, 1_800, 3_599, 3_600}) {
                        walls.add(w.plusSeconds(d));
                    }
                }
            }
            for (long x = 0; x < 4_000_000_000L; x += 97_654_321L) {
                instants.add(x);
            }
            List<Long> xs = new ArrayList<>(instants);
            for (int from = 0; from < xs.size(); from += 2000) {
                List<Long> chunk = xs.subList(from, Math.min(xs.size(), from + 2000));
                String printed = server.httpQuery("SELECT arrayStringConcat(arrayMap(x -> toString(toDateTime64(x, 0, '"
                        + name + "')), " + chunk + "), '|') FORMAT TSV").trim();
                String[] p = printed.split("\\|");
                for (int i = 0; i < chunk.size(); i++) {
                    String ours = TEXT.format(rules.toLocalDateTime(chunk.get(i), 0));
                    if (!ours.equals(p[i])) {
                        failures.add(name + " print " + chunk.get(i) + " (" + Instant.ofEpochSecond(chunk.get(i))
                                + "): server " + p[i] + ", ours " + ours);
                    }
                    if (!TEXT.format(LocalDateTime.ofInstant(Instant.ofEpochSecond(chunk.get(i)), zone)).equals(p[i])) {
                        javaPrintsOtherwise++;
                    }
                    if (!rules.toLocalDate(chunk.get(i)).toString().equals(p[i].substring(0, 10))) {
                        failures.add(name + " date " + chunk.get(i) + ": server " + p[i] + ", ours " + rules.toLocalDate(chunk.get(i)));
                    }
                }
            }
            List<LocalDateTime> ws = new ArrayList<>(walls);
            for (int from = 0; from < ws.size(); from += 2000) {
                List<LocalDateTime> chunk = ws.subList(from, Math.min(ws.size(), from + 2000));
                StringBuilder arr = new StringBuilder("[");
                for (LocalDateTime w : chunk) {
                    arr.append(arr.length() > 1 ? "," : "").append('\'').append(TEXT.format(w)).append('\'');
                }
                arr.append(']');
                String parsed = server.httpQuery("SELECT arrayStringConcat(arrayMap(x -> toString(intDiv(toUnixTimestamp64Milli("
                        + "toDateTime64(x, 0, '" + name + "')), 1000)), " + arr + "), '|') FORMAT TSV").trim();
                String[] p = parsed.split("\\|");
                for (int i = 0; i < chunk.size(); i++) {
                    long ours = rules.toEpochSecond(chunk.get(i));
                    if (chunk.get(i).atZone(zone).toEpochSecond() != Long.parseLong(p[i])) {
                        javaParsesOtherwise++;
                    }
                    if (ours != Long.parseLong(p[i])) {
                        failures.add(name + " parse " + TEXT.format(chunk.get(i)) + ": server " + p[i] + " ("
                                + Instant.ofEpochSecond(Long.parseLong(p[i])) + "), ours " + ours + " ("
                                + Instant.ofEpochSecond(ours) + "), java " + chunk.get(i).atZone(zone).toEpochSecond());
                    }
                }
            }
        }
        assertThat(failures).isEmpty();
        // not vacuous: java.time's own rules disagree with the server on some of these times
        assertThat(javaPrintsOtherwise).as("instants java.time prints otherwise").isPositive();
        assertThat(javaParsesOtherwise).as("wall-clock times java.time converts otherwise").isPositive();
    }

    /** The zone's transitions from 1900 to 2100 (historical ones and those of its yearly rules). */
    static List<ZoneOffsetTransition> transitions(ZoneRules rules) {
        List<ZoneOffsetTransition> out = new ArrayList<>();
        Instant from = LocalDateTime.of(1900, 1, 2, 0, 0).toInstant(ZoneOffset.UTC);
        Instant to = LocalDateTime.of(2100, 1, 1, 0, 0).toInstant(ZoneOffset.UTC);
        ZoneOffsetTransition t = rules.nextTransition(from);
        while (t != null && t.getInstant().isBefore(to)) {
            out.add(t);
            t = rules.nextTransition(t.getInstant());
        }
        return out;
    }
}

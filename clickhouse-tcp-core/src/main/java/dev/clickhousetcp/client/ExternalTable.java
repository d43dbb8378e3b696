package dev.clickhousetcp.client;

import dev.clickhousetcp.ClickHouseTypeException;

import java.util.ArrayList;
import java.util.List;

/**
 * Temporary data sent along with a query and visible to it as a table (ClickHouse "external data"):
 * after the Query packet the client sends one Data packet per block, carrying the table's name, before
 * the empty block that ends the query's data. The table lives only for that query.
 *
 * @param name        the table name the query refers to (e.g. {@code ids} in {@code WHERE id IN ids})
 * @param columnNames column names
 * @param columnTypes ClickHouse type names, one per column
 * @param rows        the rows, one value per column each (converted as for inserts); iterated once per send
 */
public record ExternalTable(String name, List<String> columnNames, List<String> columnTypes, Iterable<Object[]> rows) {

    /**
     * Checks and copies the column lists.
     *
     * @param name        the table name the query refers to; not blank
     * @param columnNames column names, at least one
     * @param columnTypes ClickHouse type names, one per column
     * @param rows        the rows, one value per column each; iterated once per send
     * @throws IllegalArgumentException when the name is blank, there are no columns, or the two lists
     *                                  differ in length
     */
    public ExternalTable {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("external table name must not be empty");
        }
        if (columnNames.isEmpty() || columnNames.size() != columnTypes.size()) {
            throw new IllegalArgumentException("external table " + name + " needs one type per column");
        }
        columnNames = List.copyOf(columnNames);
        columnTypes = List.copyOf(columnTypes);
    }

    /**
     * An external table from a structure such as {@code "id UInt64, tags Array(String)"}.
     *
     * @param name      the table name the query refers to
     * @param structure comma-separated {@code name Type} pairs, as in ClickHouse's {@code --structure};
     *                  commas inside a type's parentheses or inside quotes ({@code '...'}, {@code `...`}) do not
     *                  split; names are not unquoted
     * @param rows      the rows, one value per column each; iterated once per send
     * @return the external table
     * @throws ClickHouseTypeException when the structure is malformed: a part that is not {@code name Type}
     *                                 (also an empty one), unbalanced parentheses or an unclosed quote
     */
    public static ExternalTable of(String name, String structure, Iterable<Object[]> rows) {
        List<String> names = new ArrayList<>();
        List<String> types = new ArrayList<>();
        int depth = 0;
        char quote = 0; // the open quote (' or `), or 0
        int start = 0;
        for (int i = 0; i <= structure.length(); i++) {
            char c = i < structure.length() ? structure.charAt(i) : ',';
            if (i == structure.length() && (quote != 0 || depth != 0)) {
                throw malformed(structure, quote != 0 ? "an unclosed quote" : "an unclosed '('");
            }
            if (quote != 0) {
                if (c == '\\') {
                    i++; // an escaped character inside quotes
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '`') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                if (--depth < 0) {
                    throw malformed(structure, "a ')' without its '('");
                }
            } else if (c == ',' && depth == 0) {
                String part = structure.substring(start, i).trim();
                int sp = part.indexOf(' ');
                if (sp <= 0) {
                    throw malformed(structure, "expected 'name Type' in '" + part + "'");
                }
                names.add(part.substring(0, sp).trim());
                types.add(part.substring(sp + 1).trim());
                start = i + 1;
            }
        }
        return new ExternalTable(name, names, types, rows);
    }

    private static ClickHouseTypeException malformed(String structure, String what) {
        return new ClickHouseTypeException("malformed external table structure '" + structure + "': " + what);
    }
}

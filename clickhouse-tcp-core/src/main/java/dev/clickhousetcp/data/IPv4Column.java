package dev.clickhousetcp.data;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * IPv4 column: the address as a UInt32 per value, little-endian (so {@code 1.2.3.4} is the number
 * {@code 0x01020304}, sent as bytes {@code 04 03 02 01}; ClickHouse {@code SerializationIPv4andIPv6}).
 * {@link #getLong} is that number; {@link #getBytes} the 4 address bytes in network order;
 * {@link #getObject} / {@link #getInetAddress} an {@link Inet4Address} built from the bytes (no name
 * lookup); {@link #getString} the dotted quad.
 */
public final class IPv4Column extends FixedWidthColumn {
    /**
     * A column over {@code data}, which is not copied.
     *
     * @param type the column's ClickHouse type, IPv4
     * @param rows number of rows
     * @param data the little-endian UInt32 addresses, at least {@code rows * 4} bytes
     */
    IPv4Column(DataType type, int rows, byte[] data) {
        super(type, rows, data, 4);
    }

    /** The address as an unsigned 32-bit number. */
    @Override
    public long getLong(int row) {
        checkRow(row);
        return ((int) INT.get(data, row * 4)) & 0xFFFFFFFFL;
    }

    /**
     * The address as a raw int (bits of the unsigned number).
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return the address as a number whose most significant byte is the first octet ({@code 0x01020304} for
     *         {@code 1.2.3.4})
     */
    public int getRaw(int row) {
        checkRow(row);
        return (int) INT.get(data, row * 4);
    }

    /**
     * The 4 address bytes in network order.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return a new 4-byte array, the first octet at index 0
     */
    public byte[] getBytes(int row) {
        int v = getRaw(row);
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    /**
     * The address as a Java address object, built from the bytes without a name lookup.
     *
     * @param row 0-based row index, in {@code [0, size())}
     * @return a new Inet4Address with no host name
     */
    public Inet4Address getInetAddress(int row) {
        try {
            return (Inet4Address) InetAddress.getByAddress(getBytes(row));
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public Object getObject(int row) {
        return getInetAddress(row);
    }

    @Override
    public String getString(int row) {
        int v = getRaw(row);
        return (v >>> 24) + "." + ((v >>> 16) & 0xFF) + "." + ((v >>> 8) & 0xFF) + "." + (v & 0xFF);
    }

    @Override
    protected FixedWidthColumn withData(byte[] d, int r) {
        return new IPv4Column(type, r, d);
    }

    @Override
    boolean quotedWhenNested() {
        return true;
    }
}
